import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportRequest, ReportResponse__Output } from '@scn/proto';
import type { Timers } from '../backoff';
import { AgentConfigStore, agentConfigSchema } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { createInbound, tlsDirFor } from '../proxy-core/inbound-setup';
import { realityPublicKey } from '../proxy-core/reality-keys';
import { certificatePins, generateSelfSignedCertificate } from '../proxy-core/tls-certificate';
import { Reporter, type ReportSender } from './reporter';

const hardware = async () => ({
  os: 'Debian',
  osRelease: '6.1',
  arch: 'x64',
  cpuCores: 2,
  cpuModel: 'test',
  cpuGhz: 2,
  ramBytes: 2 * 1024 ** 3,
  diskBytes: 1024 ** 3,
});

const ok: ReportResponse__Output = {
  accepted: true,
  serverTimeMs: '1000000',
  reliability: 52,
  available: true,
  nextReportIntervalMs: 60_000,
  handlingMs: 0,
  hostName: '',
};

async function reporterFor(
  options: Partial<Parameters<typeof createInbound>[0]>,
  onHostName?: (name: string) => void,
) {
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-reporter-inbound-'));
  const file = path.join(dir, 'config.json');
  const kind = options.kind ?? 'v2ray';
  const inbound = await createInbound({
    kind,
    publicHost: '203.0.113.7',
    tlsDir: tlsDirFor(file),
    ...options,
  });
  const store = new AgentConfigStore(
    file,
    agentConfigSchema.parse(
      sampleConfig({
        core: { kind, binary: '/nonexistent', apiPort: 1, workDir: dir },
        inbound: { ...inbound, planRevision: '12' },
      }),
    ),
  );
  const sent: ReportRequest[] = [];
  let fail = false;
  const client: ReportSender = {
    report: async (request) => {
      sent.push(request);
      if (fail) throw new Error('unavailable');
      return ok;
    },
  };
  const reporter = new Reporter({
    client,
    store,
    core: null,
    agentVersion: '0.1.0',
    hardware,
    onHostName,
  });
  return { store, sent, reporter, setFail: (value: boolean) => (fail = value) };
}

describe('Reporter: the inbound', () => {
  it('should report a TLS/ws inbound with its path and the certificate pins', async () => {
    const { store, sent, reporter } = await reporterFor({ network: 'ws' });
    await reporter.reportOnce();
    const inbound = store.current.inbound;
    const pins = certificatePins(await readFile(inbound.certificateFile!, 'utf8'));
    expect(sent[0]!.inbound).toEqual({
      security: 'tls',
      network: 'ws',
      sni: '203.0.113.7',
      fp: 'chrome',
      pbk: '',
      sid: '',
      flow: '',
      path: inbound.path,
      serviceName: '',
      certificateSha256: pins.certificateSha256,
      publicKeySha256: pins.publicKeySha256,
      planRevision: '12',
      certificatePem: expect.stringContaining('-----BEGIN CERTIFICATE-----'),
      certificateSource: 'self_signed',
      certificateName: '203.0.113.7',
      certificateNotAfterMs: String(Date.parse(pins.notAfter)),
      certificateProblem: '',
    });
    expect(sent[0]!.inbound!.path).toMatch(/^\/[0-9a-f]{16}$/);
  });

  it('should send the PEM in the first accepted report and again only when it changed', async () => {
    const { store, sent, reporter, setFail } = await reporterFor({});
    setFail(true);
    await expect(reporter.reportOnce()).rejects.toThrow('unavailable');
    setFail(false);
    await reporter.reportOnce(); // the refused one did not count
    await reporter.reportOnce();
    const replacement = generateSelfSignedCertificate('203.0.113.7');
    await writeFile(store.current.inbound.certificateFile!, replacement.certificatePem);
    await reporter.reportOnce();
    await reporter.reportOnce();
    expect(sent.map((r) => r.inbound!.certificatePem !== '')).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    expect(sent[3]!.inbound!.certificatePem).toBe(replacement.certificatePem);
    // The pins go in every report, and follow the certificate.
    expect(sent[4]!.inbound!.certificateSha256).toBe(
      certificatePins(replacement.certificatePem).certificateSha256,
    );
  });

  it('should report REALITY with its public key and short id, and no certificate', async () => {
    const { store, sent, reporter } = await reporterFor({ kind: 'xray' });
    await reporter.reportOnce();
    const inbound = store.current.inbound;
    expect(sent[0]!.inbound).toEqual({
      security: 'reality',
      network: 'tcp',
      sni: 'www.lovelive-anime.jp',
      fp: 'chrome',
      pbk: realityPublicKey(inbound.realityPrivateKey!),
      sid: inbound.sid,
      flow: 'xtls-rprx-vision',
      path: '',
      serviceName: '',
      certificateSha256: '',
      publicKeySha256: '',
      planRevision: '12',
      certificatePem: '',
      certificateSource: '',
      certificateName: '',
      certificateNotAfterMs: '0',
      certificateProblem: '',
    });
  });

  it('should report no pin for an operator certificate (clients verify it by name)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-operator-cert-'));
    const made = generateSelfSignedCertificate('node.example.net');
    await writeFile(path.join(dir, 'cert.pem'), made.certificatePem);
    await writeFile(path.join(dir, 'key.pem'), made.keyPem, { mode: 0o600 });
    const { sent, reporter } = await reporterFor({
      publicHost: 'node.example.net',
      certificateFile: path.join(dir, 'cert.pem'),
      keyFile: path.join(dir, 'key.pem'),
    });
    await reporter.reportOnce();
    expect(sent[0]!.inbound).toMatchObject({
      security: 'tls',
      sni: 'node.example.net',
      certificateSha256: '',
      publicKeySha256: '',
      certificatePem: '',
      certificateSource: 'operator',
      certificateName: 'node.example.net',
    });
  });

  it('should report a CA-issued certificate by name and expiry, without a pin', async () => {
    const { store, sent, reporter } = await reporterFor({});
    const made = generateSelfSignedCertificate('n0123456789abcdef.nodes.example.net');
    await writeFile(store.current.inbound.certificateFile!, made.certificatePem);
    await store.update((config) => ({
      ...config,
      inbound: { ...config.inbound, certificateSource: 'acme', selfSigned: false },
    }));
    await reporter.reportOnce();
    expect(sent[0]!.inbound).toMatchObject({
      certificateSha256: '',
      publicKeySha256: '',
      certificatePem: '',
      certificateSource: 'acme',
      certificateName: 'n0123456789abcdef.nodes.example.net',
      certificateNotAfterMs: String(Date.parse(certificatePins(made.certificatePem).notAfter)),
      certificateProblem: '',
    });
  });

  it('should say why a self-signed fallback serves', async () => {
    const { store, sent, reporter } = await reporterFor({});
    await store.update((config) => ({
      ...config,
      inbound: { ...config.inbound, certificateProblem: 'connection refused on port 80' },
    }));
    await reporter.reportOnce();
    expect(sent[0]!.inbound).toMatchObject({
      certificateSource: 'self_signed',
      certificateProblem: 'connection refused on port 80',
    });
    expect(sent[0]!.inbound!.certificateSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("should keep the control plane's name for the node and say when it changes", async () => {
    const names: string[] = [];
    const { store, reporter } = await reporterFor({}, (name) => names.push(name));
    ok.hostName = 'n0123456789abcdef.nodes.example.net';
    try {
      await reporter.reportOnce();
      await reporter.reportOnce();
      expect(store.current.hostName).toBe('n0123456789abcdef.nodes.example.net');
      ok.hostName = '';
      await reporter.reportOnce();
      expect(store.current.hostName).toBeUndefined();
      expect(names).toEqual(['n0123456789abcdef.nodes.example.net', '']);
    } finally {
      ok.hostName = '';
    }
  });

  it('should report at once when asked (a new inbound), not at the next interval', async () => {
    const pending: Array<{ callback: () => void; ms: number }> = [];
    const timers: Timers = {
      setTimeout: (callback, ms) => {
        const entry = { callback, ms };
        pending.push(entry);
        return entry;
      },
      clearTimeout: (handle) => {
        const index = pending.indexOf(handle as (typeof pending)[number]);
        if (index >= 0) pending.splice(index, 1);
      },
    };
    const { store, sent } = await reporterFor({});
    const reporter = new Reporter({
      client: { report: async (request) => (sent.push(request), ok) },
      store,
      core: null,
      agentVersion: '0.1.0',
      hardware,
      timers,
    });
    reporter.start();
    await waitFor(() => pending.length === 1);
    expect(pending[0]!.ms).toBe(60_000);
    reporter.reportNow();
    await waitFor(() => sent.length === 2 && pending.length === 1);
    expect(pending[0]!.ms).toBe(60_000);
    await reporter.stop();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (!condition()) throw new Error('condition never held');
}
