import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { queryRows } from '../common/sql';
import { dataSourceOptions } from './data-source';
import { RETRY_ATTEMPTS, TransactionRunner } from './transaction-runner';

let db: TestDatabase;
let dataSource: DataSource;
let runner: TransactionRunner;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  await dataSource.query('CREATE TABLE runner_spec (id int PRIMARY KEY, n int NOT NULL)');
  runner = new TransactionRunner(dataSource);
});

afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

beforeEach(() => dataSource.query('TRUNCATE runner_spec'));

async function count(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    dataSource,
    'SELECT count(*)::int AS n FROM runner_spec',
  );
  return row!.n;
}

describe('TransactionRunner', () => {
  it('commits what the work wrote, and rolls all of it back when the work throws', async () => {
    await runner.run((tx) => tx.query('INSERT INTO runner_spec VALUES (1, 1)'));
    await expect(
      runner.run(async (tx) => {
        await tx.query('INSERT INTO runner_spec VALUES (2, 1)');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await count()).toBe(1);
  });

  it('runs work again after a real deadlock, and gives up after RETRY_ATTEMPTS', async () => {
    await dataSource.query('INSERT INTO runner_spec VALUES (1, 0), (2, 0)');
    // Two transactions lock the rows in opposite orders: PostgreSQL rolls one back (40P01).
    let attempts = 0;
    const lockBoth = (first: number, second: number, counted: boolean) =>
      runner.runRetrying(async (tx) => {
        if (counted) attempts += 1;
        await tx.query('UPDATE runner_spec SET n = n + 1 WHERE id = $1', [first]);
        await tx.query('SELECT pg_sleep(0.2)');
        await tx.query('UPDATE runner_spec SET n = n + 1 WHERE id = $1', [second]);
      });
    await Promise.all([lockBoth(1, 2, true), lockBoth(2, 1, false)]);
    const rows = await queryRows<{ n: number }>(
      dataSource,
      'SELECT n FROM runner_spec ORDER BY id',
    );
    expect(rows.map((row) => row.n)).toEqual([2, 2]);

    let failing = 0;
    await expect(
      runner.runRetrying(async (tx) => {
        failing += 1;
        await tx.query(`DO $$ BEGIN RAISE EXCEPTION 'again' USING ERRCODE = '40001'; END $$`);
      }),
    ).rejects.toThrow('again');
    expect(failing).toBe(RETRY_ATTEMPTS);
    expect(attempts).toBeGreaterThanOrEqual(1);
  });

  it('does not run work again for other errors', async () => {
    let runs = 0;
    await expect(
      runner.runRetrying(async (tx) => {
        runs += 1;
        await tx.query('INSERT INTO runner_spec VALUES (1, 1), (1, 1)');
      }),
    ).rejects.toThrow();
    expect(runs).toBe(1);
  });

  it('runs work that opens its own transaction again after a serialization failure', async () => {
    let runs = 0;
    const result = await runner.retrying(() =>
      runner.run(async (tx) => {
        runs += 1;
        await tx.query('INSERT INTO runner_spec VALUES ($1, 1)', [runs]);
        if (runs === 1) {
          await tx.query(`DO $$ BEGIN RAISE EXCEPTION 'again' USING ERRCODE = '40001'; END $$`);
        }
        return runs;
      }),
    );
    expect(result).toBe(2);
    // The first run's insert was rolled back with its transaction.
    expect(await count()).toBe(1);
    await expect(runner.retrying(() => Promise.reject(new Error('refused')))).rejects.toThrow(
      'refused',
    );
  });

  it('skips exclusive work while another transaction holds its lock', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holder = runner.exclusive(7701, () => held.then(() => 'first'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await runner.exclusive(7701, async () => 'second')).toBeNull();
    release();
    expect(await holder).toBe('first');
    expect(await runner.exclusive(7701, async () => 'third')).toBe('third');
  });
});
