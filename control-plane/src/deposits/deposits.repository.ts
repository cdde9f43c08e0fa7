import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import type { DepositRequestStatus } from './entities/deposit-request.entity';

export interface DepositRequestRow {
  id: string;
  ownerUuid: string;
  walletKind: 'client_wallet' | 'node_wallet';
  userAddress: string;
  reference: string;
  lamports: bigint;
  sslPerSol: number;
  creditMicro: bigint;
  status: DepositRequestStatus;
  signature: string | null;
  createdAt: Date;
  expiresAt: Date;
  creditedAt: Date | null;
}

export interface NewCredit {
  signature: string;
  requestId: string;
  ownerUuid: string;
  lamports: bigint;
  sslPerSol: number;
  creditMicro: bigint;
  sender: string;
  blockTime: Date | null;
  createdAt: Date;
}

export interface CreditRow {
  signature: string;
  requestId: string;
  ownerUuid: string;
  creditMicro: bigint;
  lamports: bigint;
}

interface RawRequest {
  id: string;
  owner_uuid: string;
  wallet_kind: 'client_wallet' | 'node_wallet';
  user_address: string;
  reference: string;
  lamports: string;
  ssl_per_sol: number;
  credit_micro: string;
  status: DepositRequestStatus;
  signature: string | null;
  created_at: Date;
  expires_at: Date;
  credited_at: Date | null;
}

const REQUEST_COLUMNS = `id, owner_uuid, wallet_kind, user_address, reference, lamports, ssl_per_sol,
  credit_micro, status, signature, created_at, expires_at, credited_at`;

function toRequest(row: RawRequest): DepositRequestRow {
  return {
    id: row.id,
    ownerUuid: row.owner_uuid,
    walletKind: row.wallet_kind,
    userAddress: row.user_address,
    reference: row.reference,
    lamports: BigInt(row.lamports),
    sslPerSol: row.ssl_per_sol,
    creditMicro: BigInt(row.credit_micro),
    status: row.status,
    signature: row.signature,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    creditedAt: row.credited_at,
  };
}

/** The only SQL of deposits. */
@Injectable()
export class DepositsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertRequest(request: Omit<DepositRequestRow, 'status' | 'signature' | 'creditedAt'>) {
    await this.dataSource.query(
      `INSERT INTO deposit_requests (id, owner_uuid, wallet_kind, user_address, reference, lamports,
         ssl_per_sol, credit_micro, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        request.id,
        request.ownerUuid,
        request.walletKind,
        request.userAddress,
        request.reference,
        request.lamports.toString(),
        request.sslPerSol,
        request.creditMicro.toString(),
        request.createdAt,
        request.expiresAt,
      ],
    );
  }

  /** The request if it belongs to `ownerUuid` (another account's is not found). */
  async findOwned(ownerUuid: string, id: string): Promise<DepositRequestRow | null> {
    const rows = await queryRows<RawRequest>(
      this.dataSource,
      `SELECT ${REQUEST_COLUMNS} FROM deposit_requests WHERE owner_uuid = $1 AND id = $2`,
      [ownerUuid, id],
    );
    return rows[0] ? toRequest(rows[0]) : null;
  }

  /** The open requests of an account from `userAddress` for exactly `lamports` (not expired). */
  async openMatching(
    ownerUuid: string,
    userAddress: string,
    lamports: bigint,
    notExpiredAt: Date,
  ): Promise<DepositRequestRow[]> {
    const rows = await queryRows<RawRequest>(
      this.dataSource,
      `SELECT ${REQUEST_COLUMNS} FROM deposit_requests
       WHERE owner_uuid = $1 AND user_address = $2 AND lamports = $3 AND status = 'open'
         AND expires_at >= $4
       ORDER BY created_at`,
      [ownerUuid, userAddress, lamports.toString(), notExpiredAt],
    );
    return rows.map(toRequest);
  }

  /**
   * The account's newest credited request from `userAddress` for exactly `lamports`: what a
   * repeat of the spec's verify (sender and amount, no request id) names once it was credited.
   */
  async newestCreditedMatching(
    ownerUuid: string,
    userAddress: string,
    lamports: bigint,
  ): Promise<DepositRequestRow | null> {
    const rows = await queryRows<RawRequest>(
      this.dataSource,
      `SELECT ${REQUEST_COLUMNS} FROM deposit_requests
       WHERE owner_uuid = $1 AND user_address = $2 AND lamports = $3 AND status = 'credited'
       ORDER BY credited_at DESC, id
       LIMIT 1`,
      [ownerUuid, userAddress, lamports.toString()],
    );
    return rows[0] ? toRequest(rows[0]) : null;
  }

  /** Open requests whose reference is one of `references` (the watcher's match). */
  async openByReferences(references: readonly string[]): Promise<DepositRequestRow[]> {
    if (references.length === 0) return [];
    const rows = await queryRows<RawRequest>(
      this.dataSource,
      `SELECT ${REQUEST_COLUMNS} FROM deposit_requests
       WHERE reference = ANY($1::varchar[]) AND status = 'open'`,
      [references],
    );
    return rows.map(toRequest);
  }

  /** Whether any request is open and not past `notExpiredAt` (else the watcher rests). */
  async anyOpen(notExpiredAt: Date): Promise<boolean> {
    const rows = await queryRows<{ found: boolean }>(
      this.dataSource,
      `SELECT EXISTS (SELECT 1 FROM deposit_requests WHERE status = 'open' AND expires_at >= $1)
         AS found`,
      [notExpiredAt],
    );
    return rows[0]?.found ?? false;
  }

  /**
   * Inserts the credit unless its signature or its request is credited already (the primary key
   * and the unique request id decide, waiting for a concurrent inserter's outcome): true when
   * this call inserted it.
   */
  async insertCredit(tx: Transaction, credit: NewCredit): Promise<boolean> {
    const rows = await queryRows<{ signature: string }>(
      tx,
      `INSERT INTO deposit_credits (signature, request_id, owner_uuid, lamports, ssl_per_sol,
         credit_micro, sender, block_time, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT DO NOTHING
       RETURNING signature`,
      [
        credit.signature,
        credit.requestId,
        credit.ownerUuid,
        credit.lamports.toString(),
        credit.sslPerSol,
        credit.creditMicro.toString(),
        credit.sender,
        credit.blockTime,
        credit.createdAt,
      ],
    );
    return rows.length === 1;
  }

  /** Marks the request credited by `signature`; false when it was not open. */
  async markCredited(tx: Transaction, id: string, signature: string, at: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE deposit_requests SET status = 'credited', signature = $2, credited_at = $3
       WHERE id = $1 AND status = 'open' RETURNING id`,
      [id, signature, at],
    );
    return rows.length === 1;
  }

  /** The credit of a signature, or of a request. */
  async findCredit(by: { signature: string } | { requestId: string }): Promise<CreditRow | null> {
    const [column, value] =
      'signature' in by ? ['signature', by.signature] : ['request_id', by.requestId];
    const rows = await queryRows<{
      signature: string;
      request_id: string;
      owner_uuid: string;
      credit_micro: string;
      lamports: string;
    }>(
      this.dataSource,
      `SELECT signature, request_id, owner_uuid, credit_micro, lamports FROM deposit_credits
       WHERE ${column} = $1`,
      [value],
    );
    const row = rows[0];
    return row
      ? {
          signature: row.signature,
          requestId: row.request_id,
          ownerUuid: row.owner_uuid,
          creditMicro: BigInt(row.credit_micro),
          lamports: BigInt(row.lamports),
        }
      : null;
  }
}
