import type { Locale } from '@scn/proto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';

/** A server's escrow with money in it, and what its server's state says to do with it. */
export interface EscrowToSettle {
  serverId: string;
  /** The server's operator (null: the server was deleted). */
  operatorUuid: string | null;
  action: 'release' | 'forfeit';
  reason: 'recovered' | 'banned' | 'deleted';
}

/** A ban claimed for its e-mail. */
export interface BanNotice {
  serverId: string;
  serverName: string;
  bannedAt: Date;
  /** Since when it was below 95% (the 14 days that ran out). */
  belowSince: Date | null;
  email: string;
  /** The operator's saved language, for the mail (docs/i18n.md). */
  locale: Locale | null;
}

/**
 * The escrows and ban notices of the reliability lifecycle's reward side. The
 * escrows are ledger accounts (kind `reward_escrow`, owned by the server's id); this only finds
 * them: money moves through LedgerService.
 */
@Injectable()
export class RewardEscrowRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Escrows holding money whose server is back at 95% or more and not banned (release), banned,
   * or deleted (forfeit), in server id order after `afterServerId`.
   */
  async escrowsToSettle(
    manager: Transaction,
    afterServerId: string | null,
    limit: number,
  ): Promise<EscrowToSettle[]> {
    const rows = await queryRows<{
      server_id: string;
      operator_uuid: string | null;
      banned: boolean;
    }>(
      manager,
      `SELECT a.owner_uuid AS server_id, s.owner_uuid AS operator_uuid, s.banned_at IS NOT NULL AS banned
       FROM wallet_balances a LEFT JOIN server_directory s ON s.id = a.owner_uuid
       WHERE a.kind = 'reward_escrow' AND a.balance_micro > 0
         AND ($1::uuid IS NULL OR a.owner_uuid > $1::uuid)
         AND (s.id IS NULL OR s.banned_at IS NOT NULL OR s.below_threshold_since IS NULL)
       ORDER BY a.owner_uuid LIMIT $2`,
      [afterServerId, limit],
    );
    return rows.map((row) => ({
      serverId: row.server_id,
      operatorUuid: row.operator_uuid,
      action: row.operator_uuid === null || row.banned ? 'forfeit' : 'release',
      reason: row.operator_uuid === null ? 'deleted' : row.banned ? 'banned' : 'recovered',
    }));
  }

  /**
   * Claims up to `limit` bans not yet told (one row per ban: a replica that claims it sends its
   * e-mail, no other will), with the operator's address and the server's name.
   */
  async claimBanNotices(now: Date, limit: number): Promise<BanNotice[]> {
    const rows = await queryRows<{
      server_id: string;
      name: string;
      banned_at: Date;
      below_threshold_since: Date | null;
      email: string;
      locale: Locale | null;
    }>(
      this.dataSource,
      `WITH claimed AS (
         INSERT INTO server_ban_notices (server_id, banned_at, owner_uuid, notified_at)
         SELECT s.id, s.banned_at, s.owner_uuid, $1 FROM server_directory s
         WHERE s.banned_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM server_ban_notices n
                           WHERE n.server_id = s.id AND n.banned_at = s.banned_at)
         ORDER BY s.banned_at LIMIT $2
         ON CONFLICT DO NOTHING
         RETURNING server_id, banned_at, owner_uuid)
       SELECT c.server_id, s.name, c.banned_at, s.below_threshold_since, a.email, a.locale
       FROM claimed c JOIN server_directory s ON s.id = c.server_id JOIN account_directory a ON a.uuid = c.owner_uuid`,
      [now, limit],
    );
    return rows.map((row) => ({
      serverId: row.server_id,
      serverName: row.name,
      bannedAt: row.banned_at,
      belowSince: row.below_threshold_since,
      email: row.email,
      locale: row.locale,
    }));
  }

  /** Gives a claim back when its e-mail could not be sent: the next run tries again. */
  async unclaimBanNotice(serverId: string, bannedAt: Date): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM server_ban_notices WHERE server_id = $1 AND banned_at = $2`,
      [serverId, bannedAt],
    );
  }
}
