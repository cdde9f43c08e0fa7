import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportRequest, ReportResponse__Output } from '@scn/proto';
import { AgentConfigStore, agentConfigSchema } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import type { ClientTrafficCounters, ProxyCore } from '../proxy-core/proxy-core';
import { Reporter } from './reporter';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const answer = (accepted: boolean): ReportResponse__Output => ({
  accepted,
  serverTimeMs: '1000000',
  reliability: 52,
  available: true,
  nextReportIntervalMs: 60_000,
  handlingMs: 0,
  hostName: '',
});

/** What the next report meets: an answer, or an error after the control plane got the report. */
type Outcome = 'accepted' | 'not accepted' | 'lost';

/** A reporter over counters the test sets, and the reports it sent. */
async function setup() {
  const state = {
    counters: [] as ClientTrafficCounters[],
    countFails: false,
    outcome: 'accepted' as Outcome,
  };
  const sent: ReportRequest[] = [];
  const core: ProxyCore = {
    start: async () => undefined,
    stop: async () => undefined,
    reconcile: async () => undefined,
    traffic: async () => {
      if (state.countFails) throw new Error('core API unreachable');
      return state.counters;
    },
    status: () => ({ state: 'running', kind: 'v2ray', version: '4.34.0', restartCount: 0 }),
  };
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-reporter-traffic-'));
  const reporter = new Reporter({
    client: {
      report: async (request) => {
        sent.push(request);
        if (state.outcome === 'lost')
          throw Object.assign(new Error('deadline'), { code: 4, details: 'Deadline exceeded' });
        return answer(state.outcome === 'accepted');
      },
    },
    store: new AgentConfigStore(
      path.join(dir, 'config.json'),
      agentConfigSchema.parse(sampleConfig()),
    ),
    core,
    agentVersion: '0.1.0',
    hardware: async () => ({
      os: 'Debian',
      osRelease: '6.1',
      arch: 'x64',
      cpuCores: 2,
      cpuModel: 'test',
      cpuGhz: 2,
      ramBytes: 1024 ** 3,
      diskBytes: 1024 ** 3,
    }),
  });
  /** Sends one report meeting `outcome`; answers what it carried. */
  const report = async (outcome: Outcome) => {
    state.outcome = outcome;
    await reporter.reportOnce().catch(() => undefined);
    const request = sent[sent.length - 1]!;
    return {
      id: request.trafficBatchId,
      activeClients: request.activeClients,
      clientCountFailed: request.clientCountFailed,
      traffic: request.clientTraffic,
    };
  };
  return { state, report };
}

const bytes = (clientUuid: string, up: number, down: number) => ({
  clientUuid,
  uplinkBytes: String(up),
  downlinkBytes: String(down),
});
const counter = (clientUuid: string, up: bigint, down: bigint): ClientTrafficCounters => ({
  clientUuid,
  uplinkBytes: up,
  downlinkBytes: down,
});

describe('Reporter traffic batches', () => {
  it('should send the same batch after a lost answer, keep new traffic for the next batch, and start one once accepted', async () => {
    const { state, report } = await setup();
    expect(await report('accepted')).toEqual({
      id: '',
      activeClients: 0,
      clientCountFailed: false,
      traffic: [],
    });
    state.counters = [counter(A, 100n, 1000n), counter(B, 0n, 0n)];
    const first = await report('lost');
    expect(first.id).toMatch(UUID);
    expect(first.traffic).toEqual([bytes(A, 100, 1000)]);
    // More traffic meanwhile: the resend is the same batch, the new bytes wait.
    state.counters = [counter(A, 150n, 1000n), counter(B, 5n, 7n)];
    expect(await report('lost')).toEqual(first);
    // An answer with accepted=false does not prove an earlier copy was not applied: same batch.
    expect(await report('not accepted')).toEqual(first);
    expect(await report('accepted')).toEqual(first);
    // Accepted: a new batch of what moved since the first batch's totals.
    const second = await report('accepted');
    expect(second.id).toMatch(UUID);
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({
      activeClients: 2,
      traffic: [bytes(A, 50, 0), bytes(B, 5, 7)],
    });
    // Nothing moved since: no batch.
    expect(await report('accepted')).toMatchObject({ id: '', activeClients: 0, traffic: [] });
  });

  it('should count from zero after a core restart, also one while a batch was pending', async () => {
    const { state, report } = await setup();
    state.counters = [counter(A, 100n, 100n)];
    const first = await report('lost');
    // The core restarted while the batch was pending: its counters start again from zero.
    state.counters = [counter(A, 10n, 3n)];
    expect(await report('accepted')).toEqual(first);
    const second = await report('accepted');
    expect(second.id).not.toBe(first.id);
    expect(second.traffic).toEqual([bytes(A, 10, 3)]);
    // And after an accepted batch, as before: a counter below the baseline is a restart.
    state.counters = [counter(A, 4n, 1n)];
    expect((await report('accepted')).traffic).toEqual([bytes(A, 4, 1)]);
  });

  it('should send no traffic when the count failed and the pending batch with the next report', async () => {
    const { state, report } = await setup();
    state.counters = [counter(A, 100n, 100n)];
    const first = await report('lost');
    state.countFails = true;
    // The control plane stores no traffic of such a report, so it names no batch either.
    expect(await report('accepted')).toEqual({
      id: '',
      activeClients: 0,
      clientCountFailed: true,
      traffic: [],
    });
    state.countFails = false;
    expect(await report('accepted')).toEqual(first);
    expect((await report('accepted')).id).toBe('');
  });
});
