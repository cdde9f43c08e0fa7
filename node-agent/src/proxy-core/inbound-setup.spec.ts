import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureSelfSignedCertificate, realityServerName, withNetwork } from './inbound-setup';
import { certificatePins } from './tls-certificate';

const pinOf = async (file: string) =>
  certificatePins(await readFile(file, 'utf8')).certificateSha256;

describe('ensureSelfSignedCertificate', () => {
  it('should keep the certificate (and so the pin) for the same host, and replace it for another', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'scn-tls-')), 'tls');
    const first = await ensureSelfSignedCertificate(dir, '203.0.113.7');
    const pin = await pinOf(first.certificateFile);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(first.keyFile)).mode & 0o777).toBe(0o600);

    await ensureSelfSignedCertificate(dir, '203.0.113.7');
    expect(await pinOf(first.certificateFile)).toBe(pin);

    await ensureSelfSignedCertificate(dir, 'node.example.net');
    expect(await pinOf(first.certificateFile)).not.toBe(pin);
    expect(certificatePins(await readFile(first.certificateFile, 'utf8')).subjectAltName).toBe(
      'DNS:node.example.net',
    );
  });
});

describe('withNetwork', () => {
  const base = { security: 'tls' as const, network: 'tcp' as const, planRevision: '0' };

  it('should drop the ws path and the gRPC service name of a network no longer served', () => {
    const ws = withNetwork('xray', base, 'ws');
    expect(ws.path).toMatch(/^\/[0-9a-f]{16}$/);
    const grpc = withNetwork('xray', ws, 'grpc');
    expect(grpc.path).toBeUndefined();
    expect(grpc.serviceName).toMatch(/^[0-9a-f]{16}$/);
    expect(withNetwork('xray', grpc, 'tcp')).toMatchObject({ flow: 'xtls-rprx-vision' });
    expect(withNetwork('xray', grpc, 'tcp').serviceName).toBeUndefined();
  });
});

describe('realityServerName', () => {
  it.each([
    ['www.microsoft.com:443', 'www.microsoft.com'],
    ['example.org:8443', 'example.org'],
  ])('should take the host of %s', (dest, name) => {
    expect(realityServerName(dest)).toBe(name);
  });
});
