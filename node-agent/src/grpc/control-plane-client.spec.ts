import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { AgentError, EXIT_CODES } from '../errors';
import {
  ControlPlaneClient,
  describeGrpcError,
  isLoopback,
  parseHostPort,
  readCaFile,
} from './control-plane-client';

describe('control plane client', () => {
  it('should parse host:port and [v6]:port and refuse anything else', () => {
    expect(parseHostPort('cp.example.com:50051')).toEqual({ host: 'cp.example.com', port: 50051 });
    expect(parseHostPort('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    expect(parseHostPort('https://cp.example.com')).toBeNull();
    expect(parseHostPort('cp:99999')).toBeNull();
  });

  it('should treat only loopback addresses as loopback', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', 'cp.example.com', '0.0.0.0'].some(isLoopback)).toBe(false);
  });

  it('should refuse plaintext to a non-loopback host unless insecure was asked for', () => {
    expect(() => new ControlPlaneClient({ target: 'cp.example.com:50051', tls: false })).toThrow(
      AgentError,
    );
    new ControlPlaneClient({ target: 'cp.example.com:50051', tls: false, insecure: true }).close();
    new ControlPlaneClient({ target: '127.0.0.1:50051', tls: false }).close();
  });

  it('should report an unreachable control plane without sending an RPC', async () => {
    const client = new ControlPlaneClient({ target: '127.0.0.1:1', tls: false });
    const result = await client.checkConnectivity(300);
    client.close();
    expect(result.reachable).toBe(false);
  });

  it('should read a CA file of one or more PEM certificates and refuse anything else', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-ca-file-'));
    const ca = path.join(dir, 'ca.pem');
    // prettier-ignore
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt',
      'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=test CA',
      '-keyout', path.join(dir, 'ca.key'), '-out', ca], { stdio: 'pipe' });
    const pem = await readFile(ca, 'utf8');
    expect(readCaFile(ca).toString()).toBe(pem);
    const bundle = path.join(dir, 'bundle.pem');
    await writeFile(bundle, `# our CAs\n${pem}${pem}`);
    expect(readCaFile(bundle).toString()).toContain('# our CAs');

    const broken = path.join(dir, 'broken.pem');
    await writeFile(broken, `${pem}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`);
    const key = path.join(dir, 'ca.key');
    for (const file of [broken, key]) {
      expect(() => readCaFile(file)).toThrow(
        expect.objectContaining({
          message: `CA file ${file} does not hold a PEM certificate`,
          exitCode: EXIT_CODES.config,
        }),
      );
    }
  });

  it('should name an untrusted or mismatched certificate instead of calling it unreachable', () => {
    const unavailable = (details: string) =>
      Object.assign(new Error(details), { code: grpc.status.UNAVAILABLE, details });
    const tls = { target: 'cp.example.com:5051', tls: true };

    const untrusted = describeGrpcError(
      unavailable(
        'No connection established. Last error: Error: self-signed certificate. Resolution note: ',
      ),
      'enrollment failed',
      tls,
    );
    expect(untrusted.message).toBe(
      "enrollment failed: the control plane's TLS certificate is not trusted " +
        '(self-signed certificate): it was not issued by a CA this machine trusts',
    );
    expect(untrusted.hint).toContain('--ca-file');
    expect(untrusted.exitCode).toBe(EXIT_CODES.failure);

    const mismatch = describeGrpcError(
      unavailable(
        "No connection established. Last error: Error: Hostname/IP does not match certificate's altnames: Host: cp.example.com. is not in the cert's altnames: DNS:localhost",
      ),
      'enrollment failed',
      tls,
    );
    expect(mismatch.message).toMatch(
      /^enrollment failed: the control plane's TLS certificate is not valid for cp\.example\.com \(Hostname\/IP does not match/,
    );

    const down = describeGrpcError(
      unavailable(
        'No connection established. Last error: connect ECONNREFUSED 10.0.0.1:5051. Resolution note: ',
      ),
      'enrollment failed',
      tls,
    );
    expect(down.message).toBe(
      'enrollment failed: control plane unreachable (No connection established. Last error: connect ECONNREFUSED 10.0.0.1:5051)',
    );
    expect(down.exitCode).toBe(EXIT_CODES.unavailable);
  });
});
