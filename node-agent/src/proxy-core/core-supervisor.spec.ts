import type { ProxyCoreKind } from '@scn/proto';
import { type CoreApi, SerialQueue } from './core-process';
import { fakeCoreRuntime, type FakeCoreApi, ManualTime } from './core-runtime.fixture';
import { CoreSupervisor, type SupervisorTimings } from './core-supervisor';
import { ProxyCoreException } from './proxy-core.exception';

const TIMINGS: SupervisorTimings = {
  readyTimeoutMs: 1_000,
  restartInitialDelayMs: 500,
  restartMaxDelayMs: 4_000,
  stableAfterMs: 60_000,
  stopTimeoutMs: 2_000,
};

interface SetupOptions {
  kind?: ProxyCoreKind;
  random?: () => number;
  /** Makes the next `ready` hooks throw, in order (undefined: succeed). */
  readyErrors?: Array<Error | undefined>;
  prepareError?: Error;
  /** No binary: inspectBinary finds nothing. */
  absent?: boolean;
  /** Every core's API stays silent (ping fails). */
  silentApi?: boolean;
}

function setup(options: SetupOptions = {}) {
  const time = new ManualTime();
  const fakes = fakeCoreRuntime(time, options.random);
  if (options.absent) fakes.runtime.inspectBinary = async () => null;
  if (options.silentApi) {
    const connect = fakes.runtime.connectApi;
    fakes.runtime.connectApi = (kind, port) => {
      const api = connect(kind, port) as FakeCoreApi;
      api.answering = false;
      return api;
    };
  }
  const readied: CoreApi[] = [];
  const counts = { prepared: 0, crashed: 0 };
  const readyErrors = [...(options.readyErrors ?? [])];
  const supervisor = new CoreSupervisor({
    kind: options.kind ?? 'xray',
    binary: '/usr/local/bin/xray',
    apiPort: 10085,
    timings: TIMINGS,
    queue: new SerialQueue(),
    runtime: fakes.runtime,
    prepare: async () => {
      counts.prepared += 1;
      if (options.prepareError) throw options.prepareError;
      return '/var/lib/scn/core/config.json';
    },
    ready: async (api) => {
      const error = readyErrors.shift();
      if (error) throw error;
      readied.push(api);
    },
    crashed: () => {
      counts.crashed += 1;
    },
  });
  const current = () => fakes.children[fakes.children.length - 1]!;
  return { time, supervisor, readied, counts, current, ...fakes };
}

/** Crashes the running core and returns the restart delay the supervisor chose. */
function crash(s: ReturnType<typeof setup>): number {
  s.current().exit(2);
  expect(s.time.pendingDelays()).toHaveLength(1);
  return s.time.pendingDelays()[0]!;
}

describe('CoreSupervisor', () => {
  it('should spawn the core with its config and run when the API answers', async () => {
    const s = setup();

    await expect(s.supervisor.start()).resolves.toBe('started');

    expect(s.children).toHaveLength(1);
    expect(s.children[0]!.args).toEqual(['run', '-config', '/var/lib/scn/core/config.json']);
    expect(s.supervisor.status()).toEqual({ state: 'running', version: '1.8.24', restartCount: 0 });
    expect(s.supervisor.pid()).toBe(s.children[0]!.pid);
    expect(s.supervisor.runningApi()).toBe(s.apis[0]);
    expect(s.readied).toEqual([s.apis[0]]);
  });

  it("should pass v2ray's arguments when the core is v2ray", async () => {
    const s = setup({ kind: 'v2ray' });

    await s.supervisor.start();

    expect(s.children[0]!.args).toEqual(['-config', '/var/lib/scn/core/config.json']);
  });

  it('should report absent and spawn nothing when the binary is missing', async () => {
    const s = setup({ absent: true });

    await expect(s.supervisor.start()).resolves.toBe('absent');

    expect(s.children).toHaveLength(0);
    expect(s.supervisor.state).toBe('absent');
  });

  it('should restart after the backoff and hand the new API to ready when the core crashes once', async () => {
    const s = setup({ random: () => 0.5 });
    await s.supervisor.start();

    const delay = crash(s);

    // Equal jitter: the first ceiling is restartInitialDelayMs, jittered in its upper half.
    expect(delay).toBe(375);
    expect(s.supervisor.status()).toMatchObject({ state: 'restarting', restartCount: 1 });
    expect(s.supervisor.runningApi()).toBeUndefined();
    expect(s.counts.crashed).toBe(1);
    await s.time.advance(delay - 1);
    expect(s.children).toHaveLength(1);
    await s.time.advance(1);
    expect(s.children).toHaveLength(2);
    expect(s.supervisor.status()).toMatchObject({ state: 'running', restartCount: 1 });
    expect(s.readied).toEqual([s.apis[0], s.apis[1]]);
    expect(s.apis[0]!.closed).toBe(true);
    expect(s.counts.prepared).toBe(2);
  });

  it.each([
    ['lowest', () => 0, [250, 500, 1_000, 2_000, 2_000]],
    ['highest', () => 0.999_999, [500, 1_000, 2_000, 4_000, 4_000]],
  ])(
    'should double the delay per crash in a row up to the maximum when the jitter is at its %s',
    async (_name, random, expected) => {
      const s = setup({ random });
      await s.supervisor.start();

      const delays: number[] = [];
      for (let i = 0; i < expected.length; i += 1) {
        const delay = crash(s);
        delays.push(delay);
        await s.time.advance(delay);
        expect(s.supervisor.state).toBe('running');
      }

      expect(delays).toEqual(expected);
      expect(s.supervisor.status().restartCount).toBe(expected.length);
    },
  );

  it('should keep every delay within the upper half of its ceiling when the jitter is random', async () => {
    const s = setup({ random: Math.random });
    await s.supervisor.start();

    for (const ceiling of [500, 1_000, 2_000, 4_000, 4_000, 4_000]) {
      const delay = crash(s);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
      await s.time.advance(delay);
    }
  });

  it('should start again from the first delay when the core ran stably before it crashed', async () => {
    const s = setup({ random: () => 0 });
    await s.supervisor.start();
    await s.time.advance(crash(s));
    await s.time.advance(crash(s));
    expect(crash(s)).toBe(1_000);
    await s.time.advance(1_000);

    await s.time.advance(TIMINGS.stableAfterMs);

    expect(crash(s)).toBe(250);
  });

  it('should cancel a pending restart when stopped', async () => {
    const s = setup();
    await s.supervisor.start();
    crash(s);

    await s.supervisor.stop();

    expect(s.time.pendingDelays()).toEqual([]);
    await s.time.advance(60_000);
    expect(s.children).toHaveLength(1);
    expect(s.supervisor.state).toBe('stopped');
  });

  it('should cancel a pending restart when a stop is begun before the queue gets to it', async () => {
    const s = setup();
    await s.supervisor.start();
    crash(s);

    s.supervisor.beginStop();

    expect(s.time.pendingDelays()).toEqual([]);
    await s.time.advance(60_000);

    expect(s.children).toHaveLength(1);
  });

  it('should retry a start that failed and run when a later attempt succeeds', async () => {
    const refused = new ProxyCoreException('core_api_failed', '1 user change(s) failed');
    const s = setup({ random: () => 0, readyErrors: [refused, refused] });

    await expect(s.supervisor.start()).rejects.toBe(refused);
    expect(s.supervisor.state).toBe('failed');
    expect(s.children[0]!.signals).toEqual(['SIGTERM']);
    expect(s.time.pendingDelays()).toEqual([250]);
    await s.time.advance(250);
    // The second attempt failed too: the next waits longer.
    expect(s.time.pendingDelays()).toEqual([500]);
    await s.time.advance(500);

    expect(s.supervisor.status()).toMatchObject({ state: 'running', restartCount: 0 });
    expect(s.children).toHaveLength(3);
  });

  it('should not retry when the config itself was refused', async () => {
    const refusal = new ProxyCoreException('reality_needs_xray', 'REALITY needs the Xray core');
    const s = setup({ prepareError: refusal });

    await expect(s.supervisor.start()).rejects.toBe(refusal);

    expect(s.supervisor.state).toBe('failed');
    expect(s.time.pendingDelays()).toEqual([]);
  });

  it('should give up on the start when the API stays silent past readyTimeoutMs', async () => {
    const s = setup({ silentApi: true });

    const started = s.supervisor.start();
    const outcome = expect(started).rejects.toThrow(/did not answer within 1000 ms/);
    await s.time.advance(TIMINGS.readyTimeoutMs + 100);
    await outcome;

    expect(s.children[0]!.signals).toEqual(['SIGTERM']);
    expect(s.supervisor.state).toBe('failed');
  });

  it('should say the core exited when it dies while starting', async () => {
    const s = setup({ silentApi: true });

    const started = s.supervisor.start();
    const outcome = expect(started).rejects.toThrow(/exited while starting:\nbind: address in use/);
    await s.time.advance(100);
    s.current().stderr.emit('data', Buffer.from('bind: address in use\n'));
    s.current().exit(23);
    await s.time.advance(100);
    await outcome;

    // An exit while starting is the start's failure, not a crash of a running core.
    expect(s.supervisor.status()).toMatchObject({ state: 'failed', restartCount: 0 });
    expect(s.counts.crashed).toBe(0);
  });

  it('should send SIGKILL when the core ignores SIGTERM for stopTimeoutMs', async () => {
    const s = setup();
    await s.supervisor.start();
    s.current().stubborn = true;

    let stopped = false;
    const stopping = s.supervisor.stop().then(() => (stopped = true));
    await s.time.advance(TIMINGS.stopTimeoutMs - 1);
    expect(stopped).toBe(false);
    await s.time.advance(1);
    await stopping;

    expect(s.children[0]!.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(s.supervisor.state).toBe('stopped');
  });

  it('should restart on request without counting a crash', async () => {
    const s = setup();
    await s.supervisor.start();

    await s.supervisor.restart();

    expect(s.children).toHaveLength(2);
    expect(s.children[0]!.signals).toEqual(['SIGTERM']);
    expect(s.supervisor.status()).toMatchObject({ state: 'running', restartCount: 0 });
    expect(s.counts.crashed).toBe(0);
    expect(s.readied).toHaveLength(2);
  });
});
