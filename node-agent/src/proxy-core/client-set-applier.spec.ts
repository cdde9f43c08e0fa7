import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Timers } from '../backoff';
import { AgentConfigStore, agentConfigSchema, readAgentConfig } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { Reporter } from '../reporter/reporter';
import { ClientSetApplier } from './client-set-applier';
import type { ClientTrafficCounters, ProxyCore, ProxyCoreStatus } from './proxy-core';
import { ProxyCoreException } from './proxy-core.exception';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

/**
 * A core whose API can be made to fail, as XrayCore fails when the core's HandlerService
 * refuses or times out: the users it has only change when a reconcile succeeds.
 */
class FlakyApiCore implements ProxyCore {
  users: string[] = [];
  apiDown = false;
  calls = 0;
  /** While set, a reconcile waits for it (an API call in flight). */
  gate: Promise<void> | null = null;

  async start(allowed: readonly string[]): Promise<void> {
    this.users = [...allowed];
  }
  async stop(): Promise<void> {}
  async reconcile(allowed: readonly string[]): Promise<void> {
    this.calls += 1;
    // The call's fate is decided when it is made, even if its answer comes later.
    const down = this.apiDown;
    await this.gate;
    if (down) {
      throw new ProxyCoreException(
        'core_api_failed',
        "The proxy core's API refused AlterInbound: 14 UNAVAILABLE: connect ECONNREFUSED",
      );
    }
    this.users = [...allowed].sort();
  }
  async traffic(): Promise<ClientTrafficCounters[]> {
    return [];
  }
  status(): ProxyCoreStatus {
    return { state: 'running', kind: 'v2ray', version: '4.34.0', restartCount: 0 };
  }
}

/** Timers that run only when the test fires them. */
function manualTimers() {
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
  /** Fires the one scheduled retry and waits for the attempt it starts. */
  const fire = async (applier: ClientSetApplier) => {
    expect(pending).toHaveLength(1);
    pending.shift()!.callback();
    await applier.idle();
  };
  return { timers, pending, fire };
}

async function setup() {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'scn-applier-')), 'config.json');
  const store = new AgentConfigStore(
    file,
    agentConfigSchema.parse(sampleConfig({ appliedClientSetVersion: '1', allowedClients: [A] })),
  );
  const core = new FlakyApiCore();
  await core.start([A]);
  const { timers, pending, fire } = manualTimers();
  const logs: string[] = [];
  const applier = new ClientSetApplier({
    core,
    store,
    timers,
    // Jitter off: the delays are the ceilings, 1 s doubling up to 8 s.
    backoff: { initialMs: 1_000, maxMs: 8_000, random: () => 1 },
    log: (message) => logs.push(message),
  });
  const reporter = new Reporter({
    client: { report: () => Promise.reject(new Error('not used')) },
    store,
    core,
    agentVersion: '0.1.0',
    hardware: async () => ({
      os: 'Debian',
      osRelease: '6.1',
      arch: 'x64',
      cpuCores: 2,
      cpuModel: 'test',
      cpuGhz: 2,
      ramBytes: 2 * 1024 ** 3,
      diskBytes: 1024 ** 3,
    }),
  });
  /** What the next report would tell the control plane. */
  const reportedVersion = async () => (await reporter.prepare()).request.appliedClientSetVersion;
  return { file, store, core, applier, pending, fire, logs, reportedVersion };
}

describe('ClientSetApplier', () => {
  it('should apply a set and record its version when the core takes it', async () => {
    const { file, store, core, applier, pending, reportedVersion } = await setup();
    await applier.offer({ version: '2', clientUuids: [B, A], inboundPlan: null });
    expect(core.users).toEqual([A, B]);
    expect(store.current).toMatchObject({ appliedClientSetVersion: '2', allowedClients: [B, A] });
    expect(await reportedVersion()).toBe('2');
    expect((await readAgentConfig(file)).appliedClientSetVersion).toBe('2');
    expect(pending).toHaveLength(0);
    expect(applier.pendingVersion).toBeNull();
  });

  it('should retry with growing backoff while the core API fails and report the version only once applied', async () => {
    const { store, core, applier, pending, fire, logs, reportedVersion } = await setup();
    core.apiDown = true;

    await applier.offer({ version: '2', clientUuids: [A, B], inboundPlan: null });
    expect(core.calls).toBe(1);
    // Not applied: the node still says v1, so the control plane sees it lagging.
    expect(store.current).toMatchObject({ appliedClientSetVersion: '1', allowedClients: [A] });
    expect(await reportedVersion()).toBe('1');
    expect(applier.pendingVersion).toBe('2');
    expect(pending.map((p) => p.ms)).toEqual([1_000]);
    expect(logs.at(-1)).toMatch(
      /^applying client set v2 failed: .*API refused.*; retry 1 in 1000 ms$/,
    );

    const delays: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      delays.push(pending[0]!.ms);
      await fire(applier);
      expect(await reportedVersion()).toBe('1');
    }
    delays.push(pending[0]!.ms);
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(core.calls).toBe(5);

    // The API comes back: the next retry applies the set, and only now is v2 reported.
    core.apiDown = false;
    await fire(applier);
    expect(core.users).toEqual([A, B]);
    expect(store.current).toMatchObject({ appliedClientSetVersion: '2', allowedClients: [A, B] });
    expect(await reportedVersion()).toBe('2');
    expect(pending).toHaveLength(0);
    expect(applier.pendingVersion).toBeNull();
    expect(logs.at(-1)).toBe('applied client set v2 (2 clients)');
  });

  it('should drop a failing set for a newer one, and start the backoff again for it', async () => {
    const { store, core, applier, pending, fire, reportedVersion } = await setup();
    core.apiDown = true;
    await applier.offer({ version: '2', clientUuids: [A, B], inboundPlan: null });
    await fire(applier);
    expect(pending.map((p) => p.ms)).toEqual([2_000]);

    // v3 arrives: v2's retry is cancelled and v3 is tried at once (still failing).
    await applier.offer({ version: '3', clientUuids: [C], inboundPlan: null });
    expect(pending.map((p) => p.ms)).toEqual([1_000]);
    expect(applier.pendingVersion).toBe('3');
    // An older set arriving late (a reconnect) changes nothing.
    await applier.offer({ version: '2', clientUuids: [A, B], inboundPlan: null });
    expect(applier.pendingVersion).toBe('3');
    expect(pending).toHaveLength(1);

    core.apiDown = false;
    await fire(applier);
    expect(core.users).toEqual([C]);
    expect(store.current).toMatchObject({ appliedClientSetVersion: '3', allowedClients: [C] });
    expect(await reportedVersion()).toBe('3');
    expect(pending).toHaveLength(0);
  });

  it('should not retry a set that a newer one replaced while it was being applied', async () => {
    const { store, core, applier, pending } = await setup();
    core.apiDown = true;
    let answer: () => void = () => undefined;
    core.gate = new Promise((resolve) => (answer = resolve));
    const first = applier.offer({ version: '2', clientUuids: [B], inboundPlan: null });
    await new Promise((resolve) => setImmediate(resolve));
    expect(core.calls).toBe(1);
    // v3 arrives while v2's (failing) API call is still in flight; the API is back for v3.
    core.apiDown = false;
    const second = applier.offer({ version: '3', clientUuids: [A, C], inboundPlan: null });
    core.gate = null;
    answer();
    await Promise.all([first, second]);
    expect(core.calls).toBe(2);
    expect(core.users).toEqual([A, C]);
    expect(store.current.appliedClientSetVersion).toBe('3');
    // v2's failure scheduled no retry: v3 had replaced it.
    expect(pending).toHaveLength(0);
  });

  it('should stop retrying when stopped', async () => {
    const { core, applier, pending } = await setup();
    core.apiDown = true;
    await applier.offer({ version: '2', clientUuids: [B], inboundPlan: null });
    expect(pending).toHaveLength(1);
    await applier.stop();
    expect(pending).toHaveLength(0);
    await applier.offer({ version: '3', clientUuids: [C], inboundPlan: null });
    expect(core.calls).toBe(1);
  });

  it('should record sets without a core (demo nodes) and retry a config write that failed', async () => {
    const { store, pending, logs } = await setup();
    let failWrites = 1;
    const update = store.update.bind(store);
    store.update = (change) =>
      failWrites-- > 0 ? Promise.reject(new Error('ENOSPC: no space left')) : update(change);
    const { timers } = manualTimers();
    const scheduled: Array<() => void> = [];
    const applier = new ClientSetApplier({
      core: null,
      store,
      timers: { ...timers, setTimeout: (callback) => scheduled.push(callback) },
      log: (message) => logs.push(message),
    });
    await applier.offer({ version: '2', clientUuids: [B], inboundPlan: null });
    expect(logs.at(-1)).toContain('ENOSPC');
    expect(scheduled).toHaveLength(1);
    scheduled[0]!();
    await applier.idle();
    expect(store.current.appliedClientSetVersion).toBe('2');
    expect(pending).toHaveLength(0);
  });
});
