import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportRequest, ReportResponse__Output } from '@scn/proto';
import type { Timers } from '../backoff';
import { AgentConfigStore, agentConfigSchema } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import type { ClientTrafficCounters, ProxyCore } from '../proxy-core/proxy-core';
import { HARDWARE_RESEND_MS, Reporter, type ReportSender } from './reporter';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

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

function fakeCore(counters: () => ClientTrafficCounters[]): ProxyCore {
  return {
    start: async () => undefined,
    stop: async () => undefined,
    reconcile: async () => undefined,
    traffic: async () => counters(),
    status: () => ({ state: 'running', kind: 'v2ray', version: '4.34.0', restartCount: 0 }),
  };
}

const ok: ReportResponse__Output = {
  accepted: true,
  serverTimeMs: '1000000',
  reliability: 52,
  available: true,
  nextReportIntervalMs: 60_000,
  handlingMs: 0,
  hostName: '',
};

async function store(): Promise<AgentConfigStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-reporter-'));
  return new AgentConfigStore(
    path.join(dir, 'config.json'),
    agentConfigSchema.parse(sampleConfig()),
  );
}

/** A sender that counts its calls and fails them while `up` is false. */
function switchableClient(up: boolean) {
  const control = {
    up,
    sent: 0,
    client: {
      report: async () => {
        control.sent += 1;
        if (!control.up) throw new Error('unavailable');
        return ok;
      },
    } as ReportSender,
  };
  return control;
}

/** A reporter with no core on manual `timers`, backing off from `initialMs` without jitter. */
async function backoffReporter(
  client: ReportSender,
  timers: Timers,
  initialMs: number,
  configStore?: AgentConfigStore,
): Promise<Reporter> {
  return new Reporter({
    client,
    store: configStore ?? (await store()),
    core: null,
    agentVersion: '0.1.0',
    hardware,
    timers,
    backoff: { initialMs, maxMs: 300_000, random: () => 1 },
  });
}

/** Timers that only run when the test says so. */
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
  return { timers, pending };
}

/** Waits (in real time: the reporter writes the config file) until a timer is scheduled. */
async function nextTimer(pending: unknown[]): Promise<void> {
  for (let i = 0; i < 200 && pending.length === 0; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('Reporter', () => {
  it('should count as active only the clients whose counters moved since the previous report', async () => {
    let counters: ClientTrafficCounters[] = [
      { clientUuid: A, uplinkBytes: 100n, downlinkBytes: 1000n },
      { clientUuid: B, uplinkBytes: 0n, downlinkBytes: 0n },
    ];
    const sent: ReportRequest[] = [];
    const client: ReportSender = { report: async (r) => (sent.push(r), ok) };
    const reporter = new Reporter({
      client,
      store: await store(),
      core: fakeCore(() => counters),
      agentVersion: '0.1.0',
      hardware,
    });

    await reporter.reportOnce();
    expect(sent[0]).toMatchObject({
      activeClients: 1,
      clientCountFailed: false,
      clientTraffic: [{ clientUuid: A, uplinkBytes: '100', downlinkBytes: '1000' }],
      proxyCore: { state: 'PROXY_CORE_STATE_RUNNING', name: 'v2ray', version: '4.34.0' },
    });

    counters = [
      { clientUuid: A, uplinkBytes: 100n, downlinkBytes: 1000n },
      { clientUuid: B, uplinkBytes: 5n, downlinkBytes: 7n },
    ];
    await reporter.reportOnce();
    expect(sent[1]).toMatchObject({
      activeClients: 1,
      clientTraffic: [{ clientUuid: B, uplinkBytes: '5', downlinkBytes: '7' }],
    });

    // The core restarted: counters start from zero again, and that is new traffic.
    counters = [{ clientUuid: A, uplinkBytes: 10n, downlinkBytes: 0n }];
    await reporter.reportOnce();
    expect(sent[2]).toMatchObject({
      activeClients: 1,
      clientTraffic: [{ clientUuid: A, uplinkBytes: '10' }],
    });
  });

  /** The pings a reporter sends over reports whose round trips and handling times are given. */
  async function pingsOver(rounds: Array<{ ms: number; handlingMs: number }>) {
    let now = 1_000;
    const sent: ReportRequest[] = [];
    const client: ReportSender = {
      report: async (r) => {
        sent.push(r);
        const round = rounds[sent.length - 1] ?? { ms: 0, handlingMs: 0 };
        now += round.ms;
        return { ...ok, handlingMs: round.handlingMs };
      },
    };
    const reporter = new Reporter({
      client,
      store: await store(),
      core: fakeCore(() => []),
      agentVersion: '0.1.0',
      hardware,
      clock: { now: () => now },
    });
    for (let i = 0; i <= rounds.length; i += 1) await reporter.reportOnce();
    return sent.map((r) => r.pingMs);
  }

  it('should send 0 as the ping until a round trip was measured, then at least 1 ms', async () => {
    expect(
      await pingsOver([
        { ms: 120.4, handlingMs: 0 },
        { ms: 0.2, handlingMs: 0 },
      ]),
    ).toEqual([0, 120, 1]);
  });

  it('should measure the ping without the time the control plane held the report', async () => {
    // 240 ms in the control plane's batch, 10 ms on the network.
    expect(await pingsOver([{ ms: 250, handlingMs: 240 }])).toEqual([0, 10]);
  });

  it('should send unchanged hardware only in the first accepted report, on a change and hourly', async () => {
    let now = 1_000;
    let ramBytes = 2 * 1024 ** 3;
    let fail = true;
    const sent: ReportRequest[] = [];
    const client: ReportSender = {
      report: async (r) => {
        sent.push(r);
        if (fail) throw Object.assign(new Error('down'), { code: 14, details: 'unavailable' });
        return ok;
      },
    };
    const reporter = new Reporter({
      client,
      store: await store(),
      core: fakeCore(() => []),
      agentVersion: '0.1.0',
      hardware: async () => ({ ...(await hardware()), ramBytes }),
      clock: { now: () => now },
    });
    // A refused report does not count: the next one carries the hardware again.
    await expect(reporter.reportOnce()).rejects.toThrow('down');
    fail = false;
    await reporter.reportOnce();
    await reporter.reportOnce();
    ramBytes = 4 * 1024 ** 3; // a resize
    await reporter.reportOnce();
    await reporter.reportOnce();
    now += HARDWARE_RESEND_MS - 1;
    await reporter.reportOnce();
    now += 1;
    await reporter.reportOnce();
    await reporter.reportOnce();
    expect(sent.map((r) => r.hardware?.ramBytes ?? null)).toEqual([
      String(2 * 1024 ** 3),
      String(2 * 1024 ** 3),
      null,
      String(4 * 1024 ** 3),
      null,
      null,
      String(4 * 1024 ** 3),
      null,
    ]);
    // On the wire, 64-bit integers as decimal strings.
    expect(sent[0]!.hardware).toEqual({
      ...(await hardware()),
      ramBytes: String(2 * 1024 ** 3),
      diskBytes: String(1024 ** 3),
    });
  });

  it('should keep traffic of a failed report for the next one', async () => {
    const counters = [{ clientUuid: A, uplinkBytes: 100n, downlinkBytes: 0n }];
    const sent: ReportRequest[] = [];
    let fail = true;
    const client: ReportSender = {
      report: async (r) => {
        sent.push(r);
        if (fail)
          throw Object.assign(new Error('down'), { code: 14, details: 'connection refused' });
        return ok;
      },
    };
    const s = await store();
    const reporter = new Reporter({
      client,
      store: s,
      core: fakeCore(() => counters),
      agentVersion: '0.1.0',
      hardware,
    });
    await expect(reporter.reportOnce()).rejects.toThrow('down');
    expect(s.current.lastReport).toMatchObject({ accepted: false, error: 'connection refused' });
    fail = false;
    await reporter.reportOnce();
    expect(sent[1]!.clientTraffic).toEqual([
      { clientUuid: A, uplinkBytes: '100', downlinkBytes: '0' },
    ]);
    expect(s.current.lastReport).toMatchObject({
      accepted: true,
      reliability: 52,
      available: true,
      error: null,
    });
  });

  it('should report client_count_failed when traffic() throws', async () => {
    const sent: ReportRequest[] = [];
    const core = fakeCore(() => {
      throw new Error('core API unreachable');
    });
    const reporter = new Reporter({
      client: { report: async (r) => (sent.push(r), ok) },
      store: await store(),
      core,
      agentVersion: '0.1.0',
      hardware,
    });
    await reporter.reportOnce();
    expect(sent[0]).toMatchObject({ clientCountFailed: true, activeClients: 0, clientTraffic: [] });
  });

  it('should report an absent core without counting failure when there is no core', async () => {
    const sent: ReportRequest[] = [];
    const reporter = new Reporter({
      client: { report: async (r) => (sent.push(r), ok) },
      store: await store(),
      core: null,
      agentVersion: '0.1.0',
      hardware,
    });
    await reporter.reportOnce();
    expect(sent[0]).toMatchObject({
      clientCountFailed: false,
      proxyCore: { state: 'PROXY_CORE_STATE_ABSENT' },
    });
  });

  it('should retry with capped exponential backoff and jitter, then return to the interval', async () => {
    const { timers, pending } = manualTimers();
    let failures = 4;
    const client: ReportSender = {
      report: async () => {
        if (failures-- > 0) throw new Error('unavailable');
        return ok;
      },
    };
    const s = await store();
    await s.update((c) => ({ ...c, reportIntervalMs: 20_000 }));
    const reporter = await backoffReporter(client, timers, 5_000, s);
    reporter.start();
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await nextTimer(pending);
      const next = pending.shift()!;
      delays.push(next.ms);
      next.callback();
    }
    // 5 s, 10 s, then capped at the report interval (20 s, from the config); the success after the
    // fourth failure resets to the interval the control plane asked for (60 s).
    expect(delays).toEqual([5_000, 10_000, 20_000, 20_000, 60_000]);
    await reporter.stop();
  });

  it('should report at once when another contact succeeds while it waits out a backoff', async () => {
    const { timers, pending } = manualTimers();
    const control = switchableClient(false);
    const { client } = control;
    const reporter = await backoffReporter(client, timers, 60_000);
    reporter.start();
    await nextTimer(pending);
    expect(pending.map((p) => p.ms)).toEqual([60_000]);
    // The client stream got a message: the control plane is back.
    control.up = true;
    reporter.contactSucceeded();
    expect(pending).toEqual([]);
    await nextTimer(pending);
    expect(control.sent).toBe(2);
    // Answered: back to the interval the control plane asked for.
    expect(pending.map((p) => p.ms)).toEqual([60_000]);
    expect(reporter.nextDelay()).toBe(60_000);
    await reporter.stop();
  });

  it('should report at once to a new endpoint, but leave a failing reporter to its backoff', async () => {
    const { timers, pending } = manualTimers();
    const control = switchableClient(true);
    const { client } = control;
    const reporter = await backoffReporter(client, timers, 5_000);
    reporter.start();
    await nextTimer(pending);
    expect(control.sent).toBe(1);
    reporter.endpointChanged();
    await nextTimer(pending);
    expect(control.sent).toBe(2);
    control.up = false;
    pending.shift()!.callback();
    await nextTimer(pending);
    expect(control.sent).toBe(3);
    expect(pending.map((p) => p.ms)).toEqual([5_000]);
    // Every endpoint is failing: each move must not set off another report at once.
    reporter.endpointChanged();
    expect(pending.map((p) => p.ms)).toEqual([5_000]);
    expect(control.sent).toBe(3);
    await reporter.stop();
  });

  it('should jitter the retry delay between half and all of the backoff step', async () => {
    const { backoffDelay } = await import('../backoff');
    expect(backoffDelay(2, { initialMs: 1000, maxMs: 60_000, random: () => 0 })).toBe(2000);
    expect(backoffDelay(2, { initialMs: 1000, maxMs: 60_000, random: () => 0.999 })).toBe(3998);
    expect(backoffDelay(20, { initialMs: 1000, maxMs: 60_000, random: () => 1 })).toBe(60_000);
  });
});
