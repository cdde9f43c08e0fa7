import { type DrainParticipant, DrainCoordinator, type DrainTimers } from './drain-coordinator';

/** Timers the test moves: `wait` resolves when `advance` passes its time. */
function manualTimers() {
  let now = 0;
  interface Waiting {
    at: number;
    resolve: () => void;
    cancelled: boolean;
  }
  const waiting: Waiting[] = [];
  const timers: DrainTimers = {
    now: () => now,
    wait: (ms) => {
      const entry: Waiting = { at: now + ms, resolve: () => undefined, cancelled: false };
      const done = new Promise<void>((resolve) => (entry.resolve = resolve));
      waiting.push(entry);
      return { done, cancel: () => (entry.cancelled = true) };
    },
  };
  return {
    timers,
    pending: () => waiting.filter((entry) => !entry.cancelled && entry.at > now).length,
    async advance(ms: number) {
      now += ms;
      for (const entry of waiting) if (entry.at <= now && !entry.cancelled) entry.resolve();
      await flush();
    },
  };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

/** A participant that records what it was told and stops when the test says so. */
function participant(name: string) {
  const events: string[] = [];
  let finish: () => void = () => undefined;
  const p: DrainParticipant & { events: string[]; finish: () => void } = {
    name,
    events,
    draining: () => events.push('draining'),
    stop: () => {
      events.push('stop');
      return new Promise<void>((resolve) => (finish = resolve));
    },
    force: () => events.push('force'),
    finish: () => finish(),
  };
  return p;
}

const silent = { log: () => undefined, warn: () => undefined };

describe('DrainCoordinator', () => {
  it('should turn draining at once and stop nothing before the delay has passed', async () => {
    const clock = manualTimers();
    const drain = new DrainCoordinator({ delayMs: 5000, timeoutMs: 10_000 }, silent, clock.timers);
    const http = participant('http');
    drain.register(http);
    expect(drain.draining).toBe(false);

    void drain.drain('SIGTERM');
    expect(drain.draining).toBe(true);
    expect(drain.phase).toBe('draining');
    expect(drain.reason).toBe('SIGTERM');
    expect(http.events).toEqual(['draining']);

    await clock.advance(4999);
    expect(http.events).toEqual(['draining']);
    await clock.advance(1);
    expect(drain.phase).toBe('stopping');
    expect(http.events).toEqual(['draining', 'stop']);
  });

  it('should wait for every participant and force none when all finish within the bound', async () => {
    const clock = manualTimers();
    const drain = new DrainCoordinator({ delayMs: 1000, timeoutMs: 10_000 }, silent, clock.timers);
    const http = participant('http');
    const grpc = participant('grpc');
    drain.register(http);
    drain.register(grpc);
    const done = drain.drain('SIGTERM');
    await clock.advance(1000);
    await clock.advance(2000);
    http.finish();
    await flush();
    expect(drain.phase).toBe('stopping');
    await clock.advance(500);
    grpc.finish();

    expect(await done).toEqual({ reason: 'SIGTERM', delayMs: 1000, stopMs: 2500, forced: [] });
    expect(drain.phase).toBe('stopped');
    expect(http.events).toEqual(['draining', 'stop']);
    expect(clock.pending()).toBe(0);
  });

  it('should cut the participants still busy at the bound, and name them', async () => {
    const clock = manualTimers();
    const drain = new DrainCoordinator({ delayMs: 0, timeoutMs: 3000 }, silent, clock.timers);
    const http = participant('http');
    const grpc = participant('grpc');
    drain.register(http);
    drain.register(grpc);
    const done = drain.drain('SIGTERM');
    await flush();
    http.finish();
    await clock.advance(3000);

    expect(await done).toEqual({ reason: 'SIGTERM', delayMs: 0, stopMs: 3000, forced: ['grpc'] });
    expect(http.events).toEqual(['draining', 'stop']);
    expect(grpc.events).toEqual(['draining', 'stop', 'force']);
  });

  it('should count a participant whose stop fails as stopped, and still stop the others', async () => {
    const clock = manualTimers();
    const warnings: string[] = [];
    const drain = new DrainCoordinator(
      { delayMs: 0, timeoutMs: 3000 },
      { log: () => undefined, warn: (_fields: unknown, message: string) => warnings.push(message) },
      clock.timers,
    );
    const broken: DrainParticipant = {
      name: 'broken',
      draining: () => {
        throw new Error('boom');
      },
      stop: () => Promise.reject(new Error('boom')),
      force: () => undefined,
    };
    const http = participant('http');
    drain.register(broken);
    drain.register(http);
    const done = drain.drain('SIGINT');
    await flush();
    http.finish();

    expect((await done).forced).toEqual([]);
    expect(warnings).toEqual(['drain start failed', 'drain stop failed']);
  });

  it('should give a second call the first drain', async () => {
    const clock = manualTimers();
    const drain = new DrainCoordinator({ delayMs: 0, timeoutMs: 1000 }, silent, clock.timers);
    const first = drain.drain('SIGTERM');
    const second = drain.drain('SIGINT');
    expect(second).toBe(first);
    expect((await first).reason).toBe('SIGTERM');
  });

  it('should tell a participant that joins during the drain at once, and cut one that joins after it', async () => {
    const clock = manualTimers();
    const drain = new DrainCoordinator({ delayMs: 1000, timeoutMs: 1000 }, silent, clock.timers);
    const done = drain.drain('SIGTERM');
    const late = participant('late');
    drain.register(late);
    expect(late.events).toEqual(['draining']);
    await clock.advance(1000);
    late.finish();
    await done;
    const after = participant('after');
    drain.register(after);
    expect(after.events).toEqual(['draining', 'force']);
  });

  it('should leave out a participant that unregistered', async () => {
    const clock = manualTimers();
    const drain = new DrainCoordinator({ delayMs: 0, timeoutMs: 1000 }, silent, clock.timers);
    const gone = participant('gone');
    drain.register(gone)();
    await drain.drain('SIGTERM');
    expect(gone.events).toEqual([]);
  });
});
