import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueCertificate } from '../../src/certificates/acme-issuer';
import { orderInChildProcess } from '../../src/certificates/acme-order';
import { certificate } from '../../src/commands/certificate';
import { readAgentConfig, writeAgentConfig } from '../../src/config/agent-config';
import { createInbound, tlsDirFor } from '../../src/proxy-core/inbound-setup';
import { startTestDnsServer, type TestDnsServer } from './dns-server.support';
import { hasPebble, PEBBLE, type Pebble, startPebble } from './pebble.support';

/**
 * The agent's ACME client against pebble (Let's Encrypt's test CA): a certificate for an IP
 * address (RFC 8738) and one for a name that the test's DNS server resolves, each validated by
 * pebble connecting to the agent's own HTTP-01 responder; and the two ways an order fails that
 * an operator meets (port 80 taken, a name that does not point here), each with its cause.
 */
if (!hasPebble) console.warn(`ACME e2e skipped: ${PEBBLE} is missing (apt-get install pebble)`);
const describeLive = hasPebble ? describe : describe.skip;

/** The issued chain verifies up to pebble's root, and the leaf names `identity`. */
function chainsToRoot(chainPem: string, rootPem: string): X509Certificate {
  const chain = chainPem
    .split(/(?<=-----END CERTIFICATE-----)\s*/)
    .filter((pem) => pem.includes('BEGIN CERTIFICATE'))
    .map((pem) => new X509Certificate(pem));
  const root = new X509Certificate(rootPem);
  const all = [...chain, root];
  for (let i = 0; i < all.length - 1; i += 1) {
    expect(all[i]!.checkIssued(all[i + 1]!)).toBe(true);
    expect(all[i]!.verify(all[i + 1]!.publicKey)).toBe(true);
  }
  return chain[0]!;
}

describeLive('ACME issuance against pebble', () => {
  let dir: string;
  let dns: TestDnsServer;
  let pebble: Pebble;
  const names = new Map<string, string>([['node-1.scn.test', '127.0.0.1']]);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'scn-acme-'));
    dns = await startTestDnsServer((name) => names.get(name) ?? null);
    pebble = await startPebble({ dir, dnsPort: dns.port });
  });

  afterAll(async () => {
    await pebble?.stop();
    await dns?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const options = () => ({
    directoryUrl: pebble.directoryUrl,
    caFile: pebble.apiCaFile,
    accountKeyFile: path.join(dir, 'account.pem'),
    httpPort: pebble.httpPort,
    httpListen: '127.0.0.1',
    timeoutMs: 30_000,
  });

  it('should get a certificate for an IP address, validated over HTTP-01', async () => {
    const issued = await issueCertificate(
      { type: 'ip', value: '127.0.0.1', origin: 'public_address' },
      options(),
    );
    const leaf = chainsToRoot(issued.certificatePem, pebble.rootPem);
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkPrivateKey(createPrivateKey(issued.keyPem))).toBe(true);
  });

  it('should get a certificate for a name that resolves here, through the test DNS', async () => {
    const before = dns.queries('node-1.scn.test');
    const issued = await issueCertificate(
      { type: 'dns', value: 'node-1.scn.test', origin: 'operator_domain' },
      options(),
    );
    const leaf = chainsToRoot(issued.certificatePem, pebble.rootPem);
    expect(leaf.checkHost('node-1.scn.test')).toBe('node-1.scn.test');
    expect(leaf.subjectAltName).toBe('DNS:node-1.scn.test');
    expect(dns.queries('node-1.scn.test')).toBeGreaterThan(before);
  });

  it('should say so when the HTTP-01 port is taken, and leave nothing listening', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(pebble.httpPort, '127.0.0.1', resolve));
    try {
      await expect(
        issueCertificate({ type: 'ip', value: '127.0.0.1', origin: 'public_address' }, options()),
      ).rejects.toThrow(
        `cannot answer the CA's HTTP-01 challenge on port ${pebble.httpPort}: EADDRINUSE`,
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('should order through the separate program, from dist/ and as the installer bundle', async () => {
    const identity = { type: 'ip', value: '127.0.0.1', origin: 'public_address' } as const;
    const bundled = path.join(
      __dirname,
      '..',
      '..',
      'dist-bundle',
      'scn-agent',
      'bin',
      'scn-agent-acme.js',
    );
    for (const script of [undefined, bundled]) {
      const issued = await orderInChildProcess(identity, options(), script);
      expect(chainsToRoot(issued.certificatePem, pebble.rootPem).checkIP('127.0.0.1')).toBe(
        '127.0.0.1',
      );
    }
    await expect(
      orderInChildProcess(
        { ...identity, value: '127.0.0.2' },
        { ...options(), httpListen: '127.0.0.1' },
      ),
    ).rejects.toThrow(/127\.0\.0\.2/);
  });

  it("should pass on the CA's reason when a name does not point here", async () => {
    await expect(
      issueCertificate(
        { type: 'dns', value: 'elsewhere.scn.test', origin: 'operator_domain' },
        options(),
      ),
    ).rejects.toThrow(/elsewhere\.scn\.test/);
    // The responder is closed again: the port can be bound.
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(pebble.httpPort, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });

  it("should move a node to the operator's own name with `scn-agent certificate`, and renew on request", async () => {
    const file = path.join(dir, 'node', 'config.json');
    const inbound = await createInbound({
      kind: 'v2ray',
      publicHost: '127.0.0.1',
      tlsDir: tlsDirFor(file),
      security: 'tls',
    });
    await writeAgentConfig(file, {
      controlPlane: '127.0.0.1:1',
      tls: false,
      nodeId: '3f1c2b7e-8d4a-4f5b-9c6d-0e1f2a3b4c5d',
      nodeSecret: 'secret',
      tier: 'tier1',
      publicHost: '127.0.0.1',
      publicPort: 443,
      core: { kind: 'v2ray', binary: '/nonexistent', apiPort: 1, workDir: path.join(dir, 'core') },
      reportIntervalMs: 60_000,
      inbound,
    });
    let out = '';
    const io = { out: (text: string) => (out += text), err: () => undefined };
    await certificate(
      {
        config: file,
        domain: 'node-1.scn.test',
        acme: pebble.directoryUrl,
        acmeCaFile: pebble.apiCaFile,
        acmeHttpPort: String(pebble.httpPort),
      },
      io,
    );
    const config = await readAgentConfig(file);
    expect(config.inbound).toMatchObject({ certificateSource: 'acme', sni: 'node-1.scn.test' });
    expect(out).toContain('Certificate: issued by the CA for node-1.scn.test');
    expect(out).toContain('Certificate: publicly trusted');
    const first = new X509Certificate(await readFile(config.inbound.certificateFile!, 'utf8'));
    expect(first.checkHost('node-1.scn.test')).toBe('node-1.scn.test');

    await certificate({ config: file, renew: true }, io);
    const renewed = new X509Certificate(
      await readFile((await readAgentConfig(file)).inbound.certificateFile!, 'utf8'),
    );
    expect(renewed.serialNumber).not.toBe(first.serialNumber);
  });
});
