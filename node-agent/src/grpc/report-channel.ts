import * as grpc from '@grpc/grpc-js';
import type { AgentServiceClient, ReportRequest, ReportResponse__Output } from '@scn/proto';
import { type Clock, realTimers, systemClock, type Timers } from '../backoff';

type ReportCall = grpc.ClientDuplexStream<ReportRequest, ReportResponse__Output>;

interface Waiting {
  resolve(response: ReportResponse__Output): void;
  reject(error: Error): void;
  timer: unknown;
}

/** How long an agent sends unary reports after the control plane answered UNIMPLEMENTED. */
export const UNARY_FALLBACK_MS = 60 * 60_000;

export interface ReportChannelOptions {
  timers?: Timers;
  clock?: Clock;
  /**
   * The control plane failed or ended the stream (not this side's cancel), whether or not a
   * report waited on it: the client moves to another replica without waiting for a report.
   */
  onEnded?: (error: grpc.ServiceError) => void;
}

/** An error shaped like grpc-js's own, for failures this side decides. */
function serviceError(code: grpc.status, details: string): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), {
    code,
    details,
    metadata: new grpc.Metadata(),
  });
}

/**
 * Sends the node's reports on one long-lived ReportStream (scn.agent.v1): each report is a
 * message on the open stream and its answer the next message back, in order. A message costs
 * both sides far less than a unary call (no new HTTP/2 stream, headers or deadline timer).
 *
 * - The stream opens with the first report and stays open between reports; when it ends while
 *   idle (control plane restarted, a proxy closed it), the next report opens a new one.
 * - Each report has its own deadline. A report that misses it fails, and the stream is cancelled:
 *   its later answers could no longer be matched to their reports.
 * - When the stream fails, every report waiting on it fails with the stream's status (the caller
 *   retries with backoff, as for a unary call).
 * - A control plane without ReportStream answers UNIMPLEMENTED: the waiting reports are sent again
 *   as unary Report calls, and for UNARY_FALLBACK_MS after that every report is.
 */
export class ReportChannel {
  private call: ReportCall | null = null;
  private waiting: Waiting[] = [];
  /** Whether the current call answered a report (then UNIMPLEMENTED cannot mean "no method"). */
  private answered = false;
  private unaryUntil = 0;
  private readonly timers: Timers;
  private readonly clock: Clock;

  constructor(
    private readonly raw: AgentServiceClient,
    private readonly metadata: () => grpc.Metadata,
    private readonly options: ReportChannelOptions = {},
  ) {
    this.timers = options.timers ?? realTimers;
    this.clock = options.clock ?? systemClock;
  }

  /** Whether reports currently go as unary calls (the control plane has no ReportStream). */
  get unary(): boolean {
    return this.clock.now() < this.unaryUntil;
  }

  report(request: ReportRequest, deadlineMs: number): Promise<ReportResponse__Output> {
    if (this.unary) return this.unaryReport(request, deadlineMs);
    const call = this.call ?? this.open();
    return new Promise<ReportResponse__Output>((resolve, reject) => {
      const entry: Waiting = { resolve, reject, timer: null };
      entry.timer = this.timers.setTimeout(() => {
        // The reports after this one are cut off too: their answers would follow its own.
        this.abandon(call, serviceError(grpc.status.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      }, deadlineMs);
      this.waiting.push(entry);
      call.write(request);
    }).catch((error: unknown) => {
      // The control plane has no ReportStream (see open()): this report goes as a unary call.
      if ((error as grpc.ServiceError).code === grpc.status.UNIMPLEMENTED && this.unary) {
        return this.unaryReport(request, deadlineMs);
      }
      throw error;
    });
  }

  /** Ends the stream; reports still waiting fail with CANCELLED. */
  close(): void {
    const call = this.call;
    if (call) this.abandon(call, serviceError(grpc.status.CANCELLED, 'Report channel closed'));
  }

  private open(): ReportCall {
    const call = this.raw.ReportStream(this.metadata());
    this.call = call;
    this.answered = false;
    call.on('data', (response: ReportResponse__Output) => {
      if (call !== this.call) return;
      this.answered = true;
      const entry = this.waiting.shift();
      if (!entry) {
        this.abandon(call, serviceError(grpc.status.INTERNAL, 'An answer to no report'));
        return;
      }
      this.timers.clearTimeout(entry.timer);
      entry.resolve(response);
    });
    call.on('error', (error: grpc.ServiceError) => {
      if (call !== this.call) return;
      if (error.code === grpc.status.UNIMPLEMENTED && !this.answered) {
        this.unaryUntil = this.clock.now() + UNARY_FALLBACK_MS;
      }
      this.abandon(call, error);
      this.options.onEnded?.(error);
    });
    // A stream the control plane ended cleanly: the reports still waiting will get no answer.
    call.on('end', () => {
      if (call !== this.call) return;
      const error = serviceError(grpc.status.UNAVAILABLE, 'Report stream ended');
      this.abandon(call, error);
      this.options.onEnded?.(error);
    });
    return call;
  }

  /** Drops `call` (if still current) and fails every report waiting on it with `error`. */
  private abandon(call: ReportCall, error: Error): void {
    if (call !== this.call) return;
    this.call = null;
    const waiting = this.waiting;
    this.waiting = [];
    call.cancel();
    for (const entry of waiting) {
      this.timers.clearTimeout(entry.timer);
      entry.reject(error);
    }
  }

  private unaryReport(request: ReportRequest, deadlineMs: number): Promise<ReportResponse__Output> {
    return unaryReport(this.raw, this.metadata(), request, deadlineMs);
  }
}

/** One report as a unary Report call (a control plane without ReportStream), with its deadline. */
export function unaryReport(
  raw: AgentServiceClient,
  metadata: grpc.Metadata,
  request: ReportRequest,
  deadlineMs: number,
): Promise<ReportResponse__Output> {
  return new Promise((resolve, reject) =>
    raw.Report(request, metadata, { deadline: Date.now() + deadlineMs }, (error, response) =>
      error || !response ? reject(error ?? new Error('empty Report response')) : resolve(response),
    ),
  );
}
