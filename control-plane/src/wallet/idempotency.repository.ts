import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';

/** The only SQL of `Idempotency-Key`s: claimed, answered and read back per owner. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims the key in the caller's transaction; false when it is taken. A claim made by a
   * transaction still open waits here until that one commits (then false) or rolls back.
   */
  async claim(
    tx: Transaction,
    ownerUuid: string,
    key: string,
    requestHash: string,
  ): Promise<boolean> {
    const claimed = await queryRows<{ key: string }>(
      tx,
      `INSERT INTO idempotency_keys (owner_uuid, key, request_hash, status_code, response)
       VALUES ($1, $2, $3, 0, 'null') ON CONFLICT DO NOTHING RETURNING key`,
      [ownerUuid, key, requestHash],
    );
    return claimed.length > 0;
  }

  /** Stores the answer of a claimed key, in the transaction that claimed it. */
  async answer(tx: Transaction, ownerUuid: string, key: string, body: unknown): Promise<void> {
    await tx.query(
      `UPDATE idempotency_keys SET status_code = 200, response = $3 WHERE owner_uuid = $1 AND key = $2`,
      [ownerUuid, key, JSON.stringify(body)],
    );
  }

  /** The committed claim of a key: the fingerprint of its request and its answer. */
  async find<T>(
    ownerUuid: string,
    key: string,
  ): Promise<{ requestHash: string; response: T } | null> {
    const rows = await queryRows<{ request_hash: string; response: T }>(
      this.dataSource,
      `SELECT request_hash, response FROM idempotency_keys WHERE owner_uuid = $1 AND key = $2`,
      [ownerUuid, key],
    );
    const row = rows[0];
    return row ? { requestHash: row.request_hash, response: row.response } : null;
  }
}
