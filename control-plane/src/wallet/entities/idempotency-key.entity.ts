import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * An `Idempotency-Key` of a payment call, stored in the same transaction as the payment, with
 * the answer it gave: a replay returns that answer and moves nothing; the same key with another
 * request body is refused.
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  key: string;

  /** SHA-256 of the route and the request body. */
  @Column({ name: 'request_hash', type: 'char', length: 64 })
  requestHash: string;

  @Column({ name: 'status_code', type: 'smallint' })
  statusCode: number;

  @Column({ type: 'jsonb' })
  response: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
