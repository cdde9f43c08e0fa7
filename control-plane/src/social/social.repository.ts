import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SharePlatform } from '@scn/proto';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import type {
  ShareStatus,
  ShareVerification,
  ShareWalletKind,
} from './entities/social-share.entity';
import { HASHED_LOCK_PREFIXES } from '../jobs/job-registry';

/** A share as the domain reads it (money as bigint). */
export interface ShareRow {
  id: string;
  accountUuid: string;
  platform: SharePlatform;
  postUrl: string;
  rewardMicro: bigint;
  isPrimeTime: boolean;
  walletKind: ShareWalletKind;
  status: ShareStatus;
  sharedAt: Date;
  paysAt: Date;
}

export interface NewShare {
  id: string;
  accountUuid: string;
  platform: SharePlatform;
  postUrl: string;
  submittedUrl: string;
  timeZone: string;
  localTime: string;
  isPrimeTime: boolean;
  rewardMicro: bigint;
  walletKind: ShareWalletKind;
  sharedAt: Date;
  paysAt: Date;
}

interface RawShare {
  id: string;
  account_uuid: string;
  platform: SharePlatform;
  post_url: string;
  reward_micro: string;
  is_prime_time: boolean;
  wallet_kind: ShareWalletKind;
  status: ShareStatus;
  shared_at: Date;
  pays_at: Date;
}

const COLUMNS = `id, account_uuid, platform, post_url, reward_micro, is_prime_time, wallet_kind,
  status, shared_at, pays_at`;

function shareOf(raw: RawShare): ShareRow {
  return {
    id: raw.id,
    accountUuid: raw.account_uuid,
    platform: raw.platform,
    postUrl: raw.post_url,
    rewardMicro: BigInt(raw.reward_micro),
    isPrimeTime: raw.is_prime_time,
    walletKind: raw.wallet_kind,
    status: raw.status,
    sharedAt: new Date(raw.shared_at),
    paysAt: new Date(raw.pays_at),
  };
}

/** The only SQL of share-and-earn; reward movements are written by LedgerService. */
@Injectable()
export class SocialRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Serializes the shares of one account until the transaction ends (a transaction-scoped
   * advisory lock keyed by the account): the 7-day limit and the daily cap are read and the
   * share written under it, so two concurrent shares cannot both pass a check.
   */
  async lockAccount(tx: Transaction, accountUuid: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text || $2::text, 0))`, [
      HASHED_LOCK_PREFIXES.socialShare,
      accountUuid,
    ]);
  }

  /** The account's type ('client' or 'node'), or null when there is no such account. */
  async accountType(tx: Transaction, accountUuid: string): Promise<'client' | 'node' | null> {
    const rows = await queryRows<{ user_type: 'client' | 'node' }>(
      tx,
      'SELECT user_type FROM account_directory WHERE uuid = $1',
      [accountUuid],
    );
    return rows[0]?.user_type ?? null;
  }

  /** The account's shares since `since` (newest first), in `tx` when given. */
  async sharesSince(accountUuid: string, since: Date, tx?: Transaction): Promise<ShareRow[]> {
    const rows = await queryRows<RawShare>(
      tx ?? this.dataSource,
      `SELECT ${COLUMNS} FROM social_shares WHERE account_uuid = $1 AND shared_at > $2
       ORDER BY shared_at DESC, id`,
      [accountUuid, since],
    );
    return rows.map(shareOf);
  }

  /** The account's latest shares and whatever of theirs is still pending. */
  async recentShares(accountUuid: string, limit: number): Promise<ShareRow[]> {
    const rows = await queryRows<RawShare>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM social_shares WHERE account_uuid = $1
       ORDER BY shared_at DESC, id LIMIT $2`,
      [accountUuid, limit],
    );
    return rows.map(shareOf);
  }

  /** What the account has pending (micro-SSL). */
  async pendingMicro(accountUuid: string): Promise<bigint> {
    const rows = await queryRows<{ total: string }>(
      this.dataSource,
      `SELECT COALESCE(sum(reward_micro), 0)::text AS total FROM social_shares
       WHERE account_uuid = $1 AND status = 'pending'`,
      [accountUuid],
    );
    return BigInt(rows[0]?.total ?? '0');
  }

  /**
   * Inserts a share unless its post is already claimed (by anyone: the unique normalized URL);
   * answers whether it was inserted. No error aborts the caller's transaction.
   */
  async insertShare(tx: Transaction, share: NewShare): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `INSERT INTO social_shares (id, account_uuid, platform, post_url, submitted_url, time_zone,
         local_time, is_prime_time, reward_micro, wallet_kind, status, shared_at, pays_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12)
       ON CONFLICT (post_url) DO NOTHING RETURNING id`,
      [
        share.id,
        share.accountUuid,
        share.platform,
        share.postUrl,
        share.submittedUrl,
        share.timeZone,
        share.localTime,
        share.isPrimeTime,
        share.rewardMicro.toString(),
        share.walletKind,
        share.sharedAt,
        share.paysAt,
      ],
    );
    return rows.length === 1;
  }

  /** Pending shares whose 24 hours have passed at `now`, oldest first. */
  async dueShares(now: Date, limit: number): Promise<ShareRow[]> {
    const rows = await queryRows<RawShare>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM social_shares WHERE status = 'pending' AND pays_at <= $1
       ORDER BY pays_at, id LIMIT $2`,
      [now, limit],
    );
    return rows.map(shareOf);
  }

  /** Locks a share that is still pending; null when it was settled meanwhile. */
  async lockPending(tx: Transaction, id: string): Promise<ShareRow | null> {
    const rows = await queryRows<RawShare>(
      tx,
      `SELECT ${COLUMNS} FROM social_shares WHERE id = $1 AND status = 'pending' FOR UPDATE`,
      [id],
    );
    return rows[0] ? shareOf(rows[0]) : null;
  }

  async settle(
    tx: Transaction,
    id: string,
    outcome: {
      status: 'paid' | 'forfeited';
      verification: ShareVerification;
      ledgerTransactionId: string | null;
      at: Date;
    },
  ): Promise<void> {
    await tx.query(
      `UPDATE social_shares SET status = $2, verification = $3, ledger_transaction_id = $4,
         settled_at = $5 WHERE id = $1 AND status = 'pending'`,
      [id, outcome.status, outcome.verification, outcome.ledgerTransactionId, outcome.at],
    );
  }
}
