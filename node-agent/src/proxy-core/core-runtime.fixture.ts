import { EventEmitter } from 'node:events';
import type { Clock, Timers } from '../backoff';
import type { AddUserOutcome, RemoveUserOutcome } from './core-api';
import type { CoreApi, CoreChild, CoreRuntime } from './core-process';
import type { ClientTrafficCounters } from './proxy-core';

/** Test doubles for the proxy core's process, its API, and time (unit specs only). */

interface PendingTimer {
  at: number;
  order: number;
  ms: number;
  callback: () => void;
}

/** Lets every promise chain that can settle without I/O settle. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Timers and a clock that move only when the test advances them. */
export class ManualTime implements Timers, Clock {
  private nowMs = 1_000_000;
  private order = 0;
  private pending: PendingTimer[] = [];

  now(): number {
    return this.nowMs;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { at: this.nowMs + ms, order: this.order++, ms, callback };
    this.pending.push(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((timer) => timer !== handle);
  }

  /** The delays (as asked) of the timers still pending, longest first. */
  pendingDelays(): number[] {
    return this.pending.map((timer) => timer.ms).sort((a, b) => b - a);
  }

  /** Moves time forward, firing due timers in order and letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const target = this.nowMs + ms;
    for (;;) {
      await settle();
      const due = this.pending
        .filter((timer) => timer.at <= target)
        .sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.clearTimeout(due);
      this.nowMs = due.at;
      due.callback();
    }
    this.nowMs = target;
    await settle();
  }
}

/** A core process that lives until the test (or a signal) ends it. */
export class FakeChild extends EventEmitter implements CoreChild {
  private static nextPid = 4000;
  readonly pid = FakeChild.nextPid++;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdout = new EventEmitter();
  readonly stderr = new EventEmitter();
  readonly signals: NodeJS.Signals[] = [];
  /** Ignores SIGTERM (only SIGKILL ends it). */
  stubborn = false;

  constructor(readonly args: readonly string[]) {
    super();
  }

  kill(signal: NodeJS.Signals): boolean {
    this.signals.push(signal);
    if (this.stubborn && signal === 'SIGTERM') return true;
    queueMicrotask(() => this.exit(null, signal));
    return true;
  }

  /** The process ends: a crash when nobody asked it to. */
  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    if (this.exitCode !== null || this.signalCode !== null) return;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

/** One core run's API: an in-memory user list and traffic counters. */
export class FakeCoreApi implements CoreApi {
  readonly users = new Set<string>();
  readonly counters = new Map<string, ClientTrafficCounters>();
  /** Every add and remove, in order ('+uuid', '-uuid'). */
  readonly changes: string[] = [];
  /** Adds of these uuids fail (the core's HandlerService refused). */
  readonly refuse = new Set<string>();
  answering = true;
  closed = false;

  async ping(): Promise<void> {
    if (!this.answering) throw new Error('connection refused');
  }

  close(): void {
    this.closed = true;
  }

  async addUser(_tag: string, uuid: string): Promise<AddUserOutcome> {
    if (this.refuse.has(uuid)) throw new Error(`AddUser ${uuid} refused`);
    this.changes.push(`+${uuid}`);
    if (this.users.has(uuid)) return 'already_present';
    this.users.add(uuid);
    return 'added';
  }

  async removeUser(_tag: string, uuid: string): Promise<RemoveUserOutcome> {
    this.changes.push(`-${uuid}`);
    return this.users.delete(uuid) ? 'removed' : 'already_absent';
  }

  async userTraffic(): Promise<ClientTrafficCounters[]> {
    return [...this.counters.values()].map((counter) => ({ ...counter }));
  }

  async inboundUserEmails(): Promise<string[]> {
    return [...this.users];
  }

  count(clientUuid: string, uplinkBytes: bigint, downlinkBytes: bigint): void {
    this.counters.set(clientUuid, { clientUuid, uplinkBytes, downlinkBytes });
  }
}

/** A runtime of fakes: every spawn makes a FakeChild, every start a fresh FakeCoreApi. */
export function fakeCoreRuntime(time: ManualTime, random = () => 0.5) {
  const children: FakeChild[] = [];
  const apis: FakeCoreApi[] = [];
  const runtime: CoreRuntime = {
    timers: time,
    clock: time,
    random,
    inspectBinary: async () => '1.8.24',
    spawn: (_binary, args) => {
      const child = new FakeChild(args);
      children.push(child);
      return child;
    },
    connectApi: () => {
      const api = new FakeCoreApi();
      apis.push(api);
      return api;
    },
  };
  return { runtime, children, apis };
}
