import http from 'node:http';

/** One control-plane replica as the load sees it: where it listens, its keep-alive pool. */
export interface LoadReplica {
  name: string;
  port: number;
  agent: http.Agent;
}

export interface LoadRequest {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A request's end: a complete response, or the error it failed with. */
export interface LoadOutcome {
  kind: string;
  replica: string;
  /** When it was sent, ms after the load started. */
  sentAt: number;
  /** How long it took, ms. */
  tookMs?: number;
  status?: number;
  connection?: string;
  body?: string;
  error?: string;
}

/** Sends one request on a replica's pool; resolves once the body is read in full, or failed. */
export function send(
  replica: LoadReplica,
  request: LoadRequest,
  sentAt = 0,
  timeoutMs = 20_000,
): Promise<LoadOutcome> {
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  return new Promise((resolve) => {
    const base = { kind: request.kind, replica: replica.name, sentAt };
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port: replica.port,
        method: request.method,
        path: request.path,
        agent: replica.agent,
        headers: {
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
          ...request.headers,
        },
        timeout: timeoutMs,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            ...base,
            status: response.statusCode,
            connection: response.headers.connection,
            body,
          }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ ...base, error: error.code ?? error.message }),
        );
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ...base, error: error.code ?? error.message }),
    );
    outgoing.end(payload);
  });
}

/** Whether a replica answers its readiness probe 200 (a fresh connection, as a balancer's). */
async function ready(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = http.get(
      { host: '127.0.0.1', port, path: '/health/ready', agent: false, timeout: 2000 },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      },
    );
    probe.on('error', () => resolve(false));
    probe.on('timeout', () => probe.destroy());
  });
}

export interface LoadFigures {
  outcomes: LoadOutcome[];
  /** Requests refused at connect by the first replica (never accepted), sent again to the second. */
  redispatched: LoadOutcome[];
  /** When the balancer saw the first replica not ready, ms after the load started (or null). */
  switchedAt: number | null;
}

/**
 * Steady load through a small stand-in for a load balancer: `workers` loops send `next()`'s
 * requests over keep-alive pools to the first replica while its /health/ready answers 200 (polled
 * every `probeEveryMs`) and it accepts connections, then to the second. A connection the first refuses (ECONNREFUSED: it
 * never accepted it, so nothing of the request was read) is sent again to the second, as a
 * balancer's redispatch does; any other failure is recorded as it is.
 */
export class BalancedLoad {
  private readonly outcomes: LoadOutcome[] = [];
  private readonly redispatched: LoadOutcome[] = [];
  private primaryUp = true;
  private switchedAt: number | null = null;
  private running = false;
  private loops: Promise<void>[] = [];
  private probe: NodeJS.Timeout | null = null;
  private readonly startedAt = performance.now();

  constructor(
    private readonly primary: LoadReplica,
    private readonly secondary: LoadReplica,
    private readonly next: (worker: number) => LoadRequest,
    /** `probeEveryMs` null: no readiness probe (a balancer that learns only from refusals). */
    private readonly options: { workers: number; probeEveryMs: number | null; pauseMs: number },
  ) {}

  /** Ms since the load was created. */
  elapsed(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  start(): void {
    this.running = true;
    if (this.options.probeEveryMs !== null) {
      this.probe = setInterval(() => {
        void ready(this.primary.port).then((ok) => {
          if (!ok) this.takeOut();
        });
      }, this.options.probeEveryMs);
    }
    this.loops = Array.from({ length: this.options.workers }, (_, worker) => this.loop(worker));
  }

  async stop(): Promise<LoadFigures> {
    this.running = false;
    if (this.probe) clearInterval(this.probe);
    await Promise.all(this.loops);
    return {
      outcomes: this.outcomes,
      redispatched: this.redispatched,
      switchedAt: this.switchedAt,
    };
  }

  private async timed(replica: LoadReplica, request: LoadRequest): Promise<LoadOutcome> {
    const sentAt = this.elapsed();
    const outcome = await send(replica, request, sentAt);
    return { ...outcome, tookMs: this.elapsed() - sentAt };
  }

  private takeOut(): void {
    if (!this.primaryUp) return;
    this.primaryUp = false;
    this.switchedAt = this.elapsed();
  }

  private async loop(worker: number): Promise<void> {
    while (this.running) {
      const request = this.next(worker);
      const target = this.primaryUp ? this.primary : this.secondary;
      let outcome = await this.timed(target, request);
      if (outcome.error === 'ECONNREFUSED' && target === this.primary) {
        this.takeOut();
        this.redispatched.push(outcome);
        outcome = await this.timed(this.secondary, request);
      }
      this.outcomes.push(outcome);
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs));
    }
  }
}
