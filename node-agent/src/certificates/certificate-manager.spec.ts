import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentConfigStore, agentConfigSchema, type AgentConfigInput } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { createInbound, tlsDirFor } from '../proxy-core/inbound-setup';
import type { ProxyCore, VlessInboundSettings } from '../proxy-core/proxy-core';
import { generateSelfSignedCertificate } from '../proxy-core/tls-certificate';
import type { CertificateIdentity } from './certificate-plan';
import { CertificateManager, type IssueFn } from './certificate-manager';

const YEAR = 365 * 86_400_000;

/** A stand-in CA: a certificate for exactly what was asked (10 years, as the generator makes). */
function fakeCa() {
  const asked: CertificateIdentity[] = [];
  let failure: string | null = null;
  const issue: IssueFn = async (identity) => {
    asked.push(identity);
    if (failure) throw new Error(failure);
    return generateSelfSignedCertificate(identity.value);
  };
  return { issue, asked, failWith: (message: string | null) => (failure = message) };
}

function fakeCore() {
  const reconfigured: VlessInboundSettings[] = [];
  const core = {
    reconfigure: async (inbound: VlessInboundSettings) => {
      reconfigured.push(inbound);
    },
  } as unknown as ProxyCore;
  return { core, reconfigured };
}

async function setup(overrides: Partial<AgentConfigInput> = {}, kind: 'v2ray' | 'xray' = 'v2ray') {
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-certificates-'));
  const file = path.join(dir, 'config.json');
  const inbound = await createInbound({
    kind,
    publicHost: '203.0.113.7',
    tlsDir: tlsDirFor(file),
    security: 'tls',
  });
  const store = new AgentConfigStore(
    file,
    agentConfigSchema.parse(
      sampleConfig({
        controlPlane: 'scn.example.net:50051',
        core: { kind, binary: '/nonexistent', apiPort: 1, workDir: dir },
        inbound,
        ...overrides,
      }),
    ),
  );
  const ca = fakeCa();
  const { core, reconfigured } = fakeCore();
  let now = Date.now();
  let changes = 0;
  const manager = new CertificateManager({
    store,
    core,
    tlsDir: tlsDirFor(file),
    issue: ca.issue,
    now: () => now,
    onChange: () => (changes += 1),
  });
  return {
    store,
    ca,
    reconfigured,
    manager,
    tlsDir: tlsDirFor(file),
    changes: () => changes,
    advance: (ms: number) => (now += ms),
  };
}

describe('CertificateManager', () => {
  it("should replace the self-signed certificate with the CA's for the address, and serve it", async () => {
    const { store, ca, reconfigured, manager, tlsDir, changes } = await setup();
    expect(store.current.inbound.certificateSource).toBe('self_signed');
    const outcome = await manager.ensure();
    expect(outcome).toMatchObject({
      outcome: 'issued',
      identity: { type: 'ip', value: '203.0.113.7' },
    });
    expect(ca.asked).toHaveLength(1);
    const inbound = store.current.inbound;
    expect(inbound).toMatchObject({
      certificateSource: 'acme',
      selfSigned: false,
      sni: '203.0.113.7',
      certificateFile: path.join(tlsDir, 'acme-certificate.pem'),
      keyFile: path.join(tlsDir, 'acme-key.pem'),
    });
    expect((await stat(inbound.keyFile!)).mode & 0o777).toBe(0o600);
    expect(await readFile(inbound.certificateFile!, 'utf8')).toContain('BEGIN CERTIFICATE');
    expect(store.current.certificateState).toMatchObject({ failures: 0, lastError: null });
    expect(reconfigured).toHaveLength(1);
    expect(reconfigured[0]!.certificateFile).toBe(inbound.certificateFile);
    expect(changes()).toBe(1);
    // Written to disk too: a restart keeps it.
    const saved = JSON.parse(await readFile(store.file, 'utf8')) as { inbound: object };
    expect(saved.inbound).toMatchObject({ certificateSource: 'acme' });
  });

  it('should leave a current certificate alone, and order for the name once the control plane gives one', async () => {
    const { store, ca, manager } = await setup();
    await manager.ensure();
    await expect(manager.ensure()).resolves.toMatchObject({ outcome: 'current' });
    expect(ca.asked).toHaveLength(1);
    await store.update((config) => ({ ...config, hostName: 'n0123456789abcdef.nodes.scn.test' }));
    await expect(manager.ensure(true)).resolves.toMatchObject({ outcome: 'issued' });
    expect(ca.asked[1]).toEqual({
      type: 'dns',
      value: 'n0123456789abcdef.nodes.scn.test',
      origin: 'platform_name',
    });
    expect(store.current.inbound.sni).toBe('n0123456789abcdef.nodes.scn.test');
  });

  it("should prefer the operator's domain", async () => {
    const { ca, manager } = await setup({
      acme: { enabled: true, directoryUrl: 'https://ca.example/dir', domain: 'vpn.example.com' },
      hostName: 'n0123456789abcdef.nodes.scn.test',
    });
    await manager.ensure();
    expect(ca.asked[0]).toMatchObject({ type: 'dns', value: 'vpn.example.com' });
  });

  it('should fall back to the pinned certificate with the reason, wait, and try again when told', async () => {
    const { store, ca, manager, reconfigured, advance } = await setup();
    ca.failWith('Connection refused on port 80');
    await expect(manager.ensure()).resolves.toMatchObject({ outcome: 'failed', fallback: true });
    expect(store.current.inbound).toMatchObject({
      certificateSource: 'self_signed',
      selfSigned: true,
      certificateProblem: 'Connection refused on port 80',
    });
    expect(store.current.certificateState).toMatchObject({ failures: 1 });
    await expect(manager.ensure()).resolves.toMatchObject({ outcome: 'waiting' });
    advance(5 * 60_000 + 1);
    await expect(manager.ensure()).resolves.toMatchObject({ outcome: 'failed' });
    expect(store.current.certificateState!.failures).toBe(2);
    ca.failWith(null);
    await expect(manager.ensure(true)).resolves.toMatchObject({ outcome: 'issued' });
    expect(store.current.inbound.certificateProblem).toBeUndefined();
    expect(store.current.certificateState!.failures).toBe(0);
    expect(reconfigured.length).toBeGreaterThan(0);
  });

  it('should keep a CA certificate that still has time while its renewal fails, and fall back at its end', async () => {
    const { store, ca, manager, advance } = await setup();
    await manager.ensure();
    advance(7 * YEAR); // past two thirds of ten years
    ca.failWith('rate limited');
    await expect(manager.ensure()).resolves.toMatchObject({ outcome: 'failed', fallback: false });
    expect(store.current.inbound.certificateSource).toBe('acme');
    advance(4 * YEAR); // expired
    await expect(manager.ensure(true)).resolves.toMatchObject({
      outcome: 'failed',
      fallback: true,
    });
    expect(store.current.inbound.certificateSource).toBe('self_signed');
  });

  it('should renew into the same files: Xray reloads them itself, v2ray restarts', async () => {
    for (const kind of ['xray', 'v2ray'] as const) {
      const { manager, reconfigured, advance } = await setup({}, kind);
      await manager.ensure();
      advance(7 * YEAR);
      await expect(manager.ensure()).resolves.toMatchObject({ outcome: 'issued' });
      expect(reconfigured).toHaveLength(kind === 'xray' ? 1 : 2);
    }
  });

  it("should do nothing for REALITY, the operator's certificate, or with ACME off", async () => {
    const off = await setup({ acme: { enabled: false, directoryUrl: 'https://ca.example/dir' } });
    await expect(off.manager.ensure()).resolves.toEqual({
      outcome: 'not_needed',
      reason: 'ACME is off',
    });
    const loopback = await setup({ controlPlane: '127.0.0.1:50051' });
    await expect(loopback.manager.ensure()).resolves.toMatchObject({ outcome: 'not_needed' });
    const operator = await setup();
    await operator.store.update((config) => ({
      ...config,
      inbound: { ...config.inbound, certificateSource: 'operator', selfSigned: false },
    }));
    await expect(operator.manager.ensure()).resolves.toMatchObject({ outcome: 'not_needed' });
    expect([...off.ca.asked, ...loopback.ca.asked, ...operator.ca.asked]).toEqual([]);
  });
});
