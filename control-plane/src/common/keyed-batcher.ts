/** What `run` answers for a key that failed on its own; the batch's other keys go on. */
export class KeyFailure {
  constructor(readonly error: unknown) {}
}

interface Waiter<Out> {
  resolve: (value: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for keyed requests: what arrives while a batch is in the database goes together
 * in the next one; with none in the database the next goes at the end of this tick. Low load
 * gets no added latency, high load gets large batches (bench/ingest: one round trip per agent
 * call was the limit).
 *
 * Two requests for one key in one batch share an entry: the later input replaces the earlier
 * (a node's newer report wins) and both callers get the batch's outcome for the key. `run`
 * answers per key; a key it leaves out gets `absent`, a key it answers with a KeyFailure is
 * rejected alone. A batch carries at most `maxBatch` keys;
 * when that many are waiting, the next batch starts without waiting for the running one.
 */
export class KeyedBatcher<In, Out> {
  private pending = new Map<string, { input: In; waiters: Array<Waiter<Out>> }>();
  private readonly flights = new Set<Promise<void>>();
  private scheduled = false;

  constructor(
    private readonly run: (
      batch: ReadonlyMap<string, In>,
    ) => Promise<ReadonlyMap<string, Out | KeyFailure>>,
    private readonly absent: Out,
    private readonly maxBatch = 1000,
  ) {}

  submit(key: string, input: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      const entry = this.pending.get(key);
      if (entry) {
        entry.input = input;
        entry.waiters.push({ resolve, reject });
      } else {
        this.pending.set(key, { input, waiters: [{ resolve, reject }] });
      }
      this.schedule();
    });
  }

  /** Runs until nothing is pending or in flight (shutdown). */
  async drain(): Promise<void> {
    while (this.flights.size > 0 || this.pending.size > 0) {
      if (this.flights.size > 0) await Promise.all(this.flights);
      else await this.flush();
    }
  }

  private schedule(): void {
    if (this.scheduled || (this.flights.size > 0 && this.pending.size < this.maxBatch)) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.flights.size === 0 || this.pending.size >= this.maxBatch) void this.flush();
    });
  }

  /**
   * A batch is done: what waited for it goes to the database first, then its callers are
   * answered, in the next macrotask. Their continuations (answering an HTTP request, drawing a
   * QR code) would otherwise run before the next batch is even sent, leaving the database idle.
   */
  private landed(flight: Promise<void>, settle: () => void): Promise<void> {
    this.flights.delete(flight);
    if (this.pending.size > 0) void this.flush();
    return new Promise((resolve) =>
      setImmediate(() => {
        settle();
        resolve();
      }),
    );
  }

  private flush(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    // At most maxBatch keys per batch, oldest first; the rest go with the next.
    let batch = this.pending;
    if (batch.size <= this.maxBatch) {
      this.pending = new Map();
    } else {
      batch = new Map();
      for (const [key, entry] of this.pending) {
        if (batch.size === this.maxBatch) break;
        batch.set(key, entry);
        this.pending.delete(key);
      }
    }
    const inputs = new Map([...batch].map(([key, entry]) => [key, entry.input]));
    const settle = (outcomes: ReadonlyMap<string, Out | KeyFailure> | null, error?: unknown) => {
      for (const [key, entry] of batch) {
        const outcome = !outcomes
          ? new KeyFailure(error)
          : outcomes.has(key)
            ? outcomes.get(key)!
            : this.absent;
        if (outcome instanceof KeyFailure) entry.waiters.forEach((w) => w.reject(outcome.error));
        else entry.waiters.forEach((w) => w.resolve(outcome));
      }
    };
    const tracked: Promise<void> = this.run(inputs).then(
      (outcomes) => this.landed(tracked, () => settle(outcomes)),
      (error: unknown) => this.landed(tracked, () => settle(null, error)),
    );
    this.flights.add(tracked);
    if (this.pending.size > 0) this.schedule();
    return tracked;
  }
}
