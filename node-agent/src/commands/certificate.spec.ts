import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentConfigSchema, readAgentConfig, writeAgentConfig } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { AgentError } from '../errors';
import { createInbound, tlsDirFor } from '../proxy-core/inbound-setup';
import { certificate, certificateFlagsSchema, withCertificateFlags } from './certificate';

async function tlsNode(controlPlane = 'scn.example.net:50051') {
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-certificate-cmd-'));
  const file = path.join(dir, 'config.json');
  const inbound = await createInbound({
    kind: 'v2ray',
    publicHost: '203.0.113.7',
    tlsDir: tlsDirFor(file),
    security: 'tls',
  });
  await writeAgentConfig(file, sampleConfig({ controlPlane, inbound }));
  return file;
}

function collect() {
  let out = '';
  return { io: { out: (text: string) => (out += text), err: () => undefined }, out: () => out };
}

describe('scn-agent certificate', () => {
  it('should show where the certificate comes from', async () => {
    const file = await tlsNode('127.0.0.1:50051');
    const { io, out } = collect();
    await certificate({ config: file }, io);
    expect(out()).toBe('Certificate: SELF-SIGNED (ACME is off): only apps that pin it connect\n');
  });

  it('should set the own name and the CA, and keep them in the config', () => {
    const config = agentConfigSchema.parse(sampleConfig({ controlPlane: 'scn.example.net:50051' }));
    const flags = certificateFlagsSchema.parse({
      domain: 'VPN.example.com',
      acme: 'https://ca.example.net/dir',
      acmeHttpPort: '8080',
    });
    expect(withCertificateFlags(config, flags)?.acme).toEqual({
      enabled: true,
      directoryUrl: 'https://ca.example.net/dir',
      httpPort: 8080,
      domain: 'vpn.example.com',
    });
    const dropped = withCertificateFlags(
      {
        ...config,
        acme: {
          enabled: true,
          directoryUrl: 'https://ca.example.net/dir',
          httpPort: 80,
          domain: 'a.example.com',
        },
      },
      certificateFlagsSchema.parse({ noDomain: true }),
    );
    expect(dropped?.acme?.domain).toBeUndefined();
  });

  it('should order at once after a change, and fall back with the reason when the CA cannot be had', async () => {
    const file = await tlsNode();
    const { io, out } = collect();
    // A CA on a closed loopback port: the order fails, the node keeps its pinned certificate.
    await certificate(
      { config: file, domain: 'vpn.example.com', acme: 'https://127.0.0.1:1/dir' },
      io,
    );
    const config = await readAgentConfig(file);
    expect(config.acme).toMatchObject({ enabled: true, domain: 'vpn.example.com' });
    expect(config.inbound.certificateSource).toBe('self_signed');
    expect(config.inbound.certificateProblem).toBeTruthy();
    expect(out()).toContain('Certificate: SELF-SIGNED for now');
    expect(out()).toContain('Restart the agent');
    expect(JSON.parse(await readFile(file, 'utf8')).acme.domain).toBe('vpn.example.com');
  });

  it('should refuse a change on a node without TLS', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-certificate-cmd-'));
    const file = path.join(dir, 'config.json');
    await writeAgentConfig(file, sampleConfig());
    await expect(
      certificate({ config: file, domain: 'vpn.example.com' }, collect().io),
    ).rejects.toThrow(AgentError);
    await expect(certificate({ config: file, domain: 'not a name' }, collect().io)).rejects.toThrow(
      /host name/,
    );
  });
});
