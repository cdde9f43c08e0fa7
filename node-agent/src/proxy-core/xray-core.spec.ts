import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CORE_CONFIG_FILE } from './core-config';
import { fakeCoreRuntime, ManualTime } from './core-runtime.fixture';
import type { ProxyCoreOptions } from './proxy-core';
import { XrayCore } from './xray-core';

const UUID = '6f1c1f1e-2a51-4f34-9a4b-0c1d2e3f4a5b';
const A = '0a000000-0000-4000-8000-000000000001';
const B = '0b000000-0000-4000-8000-000000000002';
const C = '0c000000-0000-4000-8000-000000000003';

/** Waits (in real time, for the config file's I/O) until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('XrayCore', () => {
  let workDir: string;

  beforeEach(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'scn-xray-core-'));
  });

  afterEach(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it('should report absent and carry on when the binary does not exist', async () => {
    const core = new XrayCore({
      kind: 'xray',
      binary: path.join(workDir, 'no-such-xray'),
      workDir,
      apiPort: 1,
      inbound: { port: 2, security: 'none', network: 'tcp' },
    });

    await core.start([UUID]);
    await core.reconcile([]);

    expect(core.status()).toEqual({ state: 'absent', kind: 'xray', version: '', restartCount: 0 });
    expect(await core.traffic()).toEqual([]);
    await core.stop();
    expect(core.status().state).toBe('absent');
  });

  it('should refuse to start when REALITY is asked of v2ray', async () => {
    const core = new XrayCore({
      kind: 'v2ray',
      binary: process.execPath,
      workDir,
      apiPort: 1,
      inbound: {
        port: 2,
        security: 'reality',
        network: 'tcp',
        sni: 'a.example',
        realityPrivateKey: 'k',
      },
    });

    await expect(core.start([UUID])).rejects.toThrow(/REALITY needs the Xray core/);
    expect(core.status().state).toBe('failed');
  });

  describe('over a faked process and API', () => {
    const options = (): ProxyCoreOptions => ({
      kind: 'xray',
      binary: '/usr/local/bin/xray',
      workDir,
      apiPort: 10085,
      inbound: { port: 8443, security: 'none', network: 'tcp' },
      ownAddresses: () => ['203.0.113.5/32'],
      nameservers: async () => ['192.0.2.53'],
    });

    function setup() {
      const time = new ManualTime();
      const fakes = fakeCoreRuntime(time, () => 0);
      const core = new XrayCore(options(), { restartInitialDelayMs: 500 }, fakes.runtime);
      const crashAndRestart = async () => {
        const before = fakes.apis.length;
        fakes.children[fakes.children.length - 1]!.exit(2);
        expect(core.status().state).toBe('restarting');
        await time.advance(250);
        await until(() => core.status().state === 'running', 'the restart');
        expect(fakes.apis).toHaveLength(before + 1);
      };
      return { time, core, crashAndRestart, ...fakes };
    }

    async function configuredClients(): Promise<string[]> {
      const config = JSON.parse(await readFile(path.join(workDir, CORE_CONFIG_FILE), 'utf8')) as {
        inbounds: Array<{ tag: string; settings?: { clients?: Array<{ id: string }> } }>;
      };
      const vless = config.inbounds.find((inbound) => inbound.settings?.clients);
      return (vless?.settings?.clients ?? []).map((client) => client.id).sort();
    }

    it('should re-add every allowed user through the new API when the core restarts after a crash', async () => {
      const s = setup();
      await s.core.start([A, B]);
      expect([...s.apis[0]!.users].sort()).toEqual([A, B]);

      await s.crashAndRestart();

      expect(s.apis[1]!.changes).toEqual([`+${A}`, `+${B}`]);
      expect(s.core.status()).toMatchObject({ state: 'running', restartCount: 1 });
      await s.core.stop();
    });

    it('should start with a set changed while the core was down when it restarts', async () => {
      const s = setup();
      await s.core.start([A, B]);
      s.children[0]!.exit(2);

      await s.core.reconcile([B, C]);

      // The config is rewritten at once: a core started from it has the new set.
      expect(await configuredClients()).toEqual([B, C]);
      expect(s.apis).toHaveLength(1);
      await s.time.advance(250);
      await until(() => s.core.status().state === 'running', 'the restart');
      expect([...s.apis[1]!.users].sort()).toEqual([B, C]);
      await s.core.stop();
    });

    it('should cancel a pending restart when stopped', async () => {
      const s = setup();
      await s.core.start([A]);
      s.children[0]!.exit(2);

      await s.core.stop();
      await s.time.advance(60_000);

      expect(s.children).toHaveLength(1);
      expect(s.time.pendingDelays()).toEqual([]);
      expect(s.core.status().state).toBe('stopped');
    });

    it('should carry the counters over a new inbound and drop them when the core crashes', async () => {
      const s = setup();
      await s.core.start([A]);
      s.apis[0]!.count(A, 100n, 1_000n);

      await s.core.reconfigure({ port: 9443, security: 'none', network: 'tcp' });
      s.apis[1]!.count(A, 1n, 2n);

      expect(s.apis[0]!.closed).toBe(true);
      expect(s.core.status().restartCount).toBe(0);
      expect(await s.core.traffic()).toEqual([
        { clientUuid: A, uplinkBytes: 101n, downlinkBytes: 1_002n },
      ]);
      await s.crashAndRestart();
      s.apis[2]!.count(A, 7n, 7n);
      expect(await s.core.traffic()).toEqual([
        { clientUuid: A, uplinkBytes: 7n, downlinkBytes: 7n },
      ]);
      await s.core.stop();
    });

    it('should restart from the config file when an audit finds a foreign user', async () => {
      const s = setup();
      await s.core.start([A]);
      s.apis[0]!.users.add(C);

      const result = await s.core.audit();

      expect(result).toMatchObject({ foreignRemoved: [C], reset: 'foreign_users', error: null });
      expect(result.at).toBe(new Date(s.time.now()).toISOString());
      expect(s.children).toHaveLength(2);
      expect([...s.apis[1]!.users]).toEqual([A]);
      expect(s.core.status().restartCount).toBe(0);
      await s.core.stop();
    });

    it("should restart when the node's addresses changed since the config was written", async () => {
      let addresses = ['203.0.113.5/32'];
      const time = new ManualTime();
      const fakes = fakeCoreRuntime(time);
      const core = new XrayCore({ ...options(), ownAddresses: () => addresses }, {}, fakes.runtime);
      await core.start([A]);
      addresses = ['203.0.113.5/32', '198.51.100.7/32'];

      expect(await core.audit()).toMatchObject({ reset: 'network_changed', mechanism: null });
      expect(fakes.children).toHaveLength(2);
      expect(await core.audit()).toMatchObject({ reset: null, mechanism: 'xray_inbound_users' });
      await core.stop();
    });
  });
});
