import { KeyedBatcher, KeyFailure } from './keyed-batcher';

/** A run the test finishes by hand, recording what each batch carried. */
function controlledRun() {
  const batches: Array<Map<string, number>> = [];
  const finishers: Array<(outcome: Map<string, string> | Error) => void> = [];
  const run = (batch: ReadonlyMap<string, number>) =>
    new Promise<Map<string, string>>((resolve, reject) => {
      batches.push(new Map(batch));
      finishers.push((outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)));
    });
  return { batches, finishers, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedBatcher', () => {
  it('should send one batch at once, then group what arrives meanwhile into the next', async () => {
    const { batches, finishers, run } = controlledRun();
    const batcher = new KeyedBatcher(run, 'absent');
    const first = batcher.submit('a', 1);
    await tick();
    expect(batches).toEqual([new Map([['a', 1]])]);
    const later = [batcher.submit('b', 2), batcher.submit('c', 3)];
    await tick();
    expect(batches).toHaveLength(1); // waits for the running batch
    finishers[0]!(new Map([['a', 'A']]));
    await expect(first).resolves.toBe('A');
    await tick();
    expect(batches[1]).toEqual(
      new Map([
        ['b', 2],
        ['c', 3],
      ]),
    );
    finishers[1]!(new Map([['b', 'B']]));
    await expect(Promise.all(later)).resolves.toEqual(['B', 'absent']);
  });

  it('should send the next batch before answering the callers of the finished one', async () => {
    const { batches, finishers, run } = controlledRun();
    const batcher = new KeyedBatcher(run, 'absent');
    const first = batcher.submit('a', 1);
    await tick();
    void batcher.submit('b', 2);
    finishers[0]!(new Map([['a', 'A']]));
    await expect(first).resolves.toBe('A');
    // 'b' was on its way to the database before the caller of 'a' went on.
    expect(batches.map((b) => [...b.keys()])).toEqual([['a'], ['b']]);
  });

  it('should let the later input of one key win and answer both callers', async () => {
    const { batches, finishers, run } = controlledRun();
    const batcher = new KeyedBatcher(run, 'absent');
    const both = [batcher.submit('a', 1), batcher.submit('a', 2)];
    await tick();
    expect(batches).toEqual([new Map([['a', 2]])]);
    finishers[0]!(new Map([['a', 'A']]));
    await expect(Promise.all(both)).resolves.toEqual(['A', 'A']);
  });

  it('should reject every caller of a failed batch and go on with the next', async () => {
    const { finishers, run } = controlledRun();
    const batcher = new KeyedBatcher(run, 'absent');
    const failed = [batcher.submit('a', 1)];
    await tick();
    const next = batcher.submit('b', 2);
    finishers[0]!(new Error('database gone'));
    await expect(failed[0]).rejects.toThrow('database gone');
    await tick();
    finishers[1]!(new Map([['b', 'B']]));
    await expect(next).resolves.toBe('B');
  });

  it('should reject only the key the run says failed', async () => {
    const batcher = new KeyedBatcher(
      async () =>
        new Map<string, string | KeyFailure>([
          ['a', 'A'],
          ['b', new KeyFailure(new Error('bad row'))],
        ]),
      'absent',
    );
    const [a, b] = [batcher.submit('a', 1), batcher.submit('b', 2)];
    await expect(a).resolves.toBe('A');
    await expect(b).rejects.toThrow('bad row');
  });

  it('should start another batch when the pending ones reach the limit', async () => {
    const { batches, run } = controlledRun();
    const batcher = new KeyedBatcher(run, 'absent', 3);
    void batcher.submit('a', 1);
    await tick();
    ['b', 'c', 'd'].forEach((key, i) => void batcher.submit(key, i));
    await tick();
    expect(batches.map((b) => [...b.keys()])).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('should carry at most the limit in one batch', async () => {
    const { batches, run } = controlledRun();
    const batcher = new KeyedBatcher(run, 'absent', 3);
    ['a', 'b', 'c', 'd', 'e', 'f', 'g'].forEach((key, i) => void batcher.submit(key, i));
    await tick();
    await tick();
    expect(batches.map((b) => [...b.keys()])).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
  });

  it('should drain what is pending and in flight', async () => {
    const done: string[] = [];
    const batcher = new KeyedBatcher(async (batch: ReadonlyMap<string, number>) => {
      await tick();
      done.push(...batch.keys());
      return new Map<string, string>();
    }, 'absent');
    void batcher.submit('a', 1);
    void batcher.submit('b', 2);
    await batcher.drain();
    expect(done.sort()).toEqual(['a', 'b']);
  });
});
