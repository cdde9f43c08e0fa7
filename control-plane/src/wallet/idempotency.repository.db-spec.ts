import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { IdempotencyRepository } from './idempotency.repository';

let db: TestDatabase;
let dataSource: DataSource;
let transactions: TransactionRunner;
let repository: IdempotencyRepository;

/** Request fingerprints are sha256 hex (the column is char(64)). */
const HASH_1 = 'a'.repeat(64);
const HASH_2 = 'b'.repeat(64);

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  transactions = new TransactionRunner(dataSource);
  repository = new IdempotencyRepository(dataSource);
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

describe('IdempotencyRepository', () => {
  it('should claim a key once per owner and give back the stored answer', async () => {
    const owner = randomUUID();
    const claimed = await transactions.run(async (tx) => {
      const first = await repository.claim(tx, owner, 'k1', HASH_1);
      await repository.answer(tx, owner, 'k1', { paid: '10' });
      return first;
    });
    expect(claimed).toBe(true);
    await expect(transactions.run((tx) => repository.claim(tx, owner, 'k1', HASH_2))).resolves.toBe(
      false,
    );
    await expect(repository.find(owner, 'k1')).resolves.toEqual({
      requestHash: HASH_1,
      response: { paid: '10' },
    });
    // The same key of another owner is another key.
    await expect(
      transactions.run((tx) => repository.claim(tx, randomUUID(), 'k1', HASH_1)),
    ).resolves.toBe(true);
  });

  it('should leave no claim behind when the transaction that claimed it rolls back', async () => {
    const owner = randomUUID();
    await expect(
      transactions.run(async (tx) => {
        await repository.claim(tx, owner, 'k2', HASH_1);
        throw new Error('payment refused');
      }),
    ).rejects.toThrow('payment refused');
    await expect(repository.find(owner, 'k2')).resolves.toBeNull();
  });
});
