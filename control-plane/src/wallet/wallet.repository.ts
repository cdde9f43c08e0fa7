import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { queryRows } from '../common/sql';
import type { TransactionDescriptionCode } from '@scn/proto';
import type { LedgerAccountKind } from './entities/ledger-account.entity';
import type { LedgerTransactionType } from './entities/ledger-transaction.entity';
import type { FrozenLot } from './wallet-balance';

/** The owner of the system accounts (one per kind): the nil UUID. */
export const SYSTEM_OWNER = '00000000-0000-0000-0000-000000000000';

/** Enough for every wallet that pays or earns in a busy period; the oldest are forgotten. */
const MAX_REMEMBERED_IDS = 100_000;

export interface LockedAccount {
  id: string;
  balanceMicro: bigint;
}

export interface TransactionRow {
  id: string;
  type: LedgerTransactionType;
  amountMicro: string;
  createdAt: Date;
  subscriptionId: string | null;
  serverCount: number | null;
  duration: string | null;
  description: string | null;
  descriptionCode: TransactionDescriptionCode | null;
  descriptionValues: Record<string, string | number | boolean> | null;
  frozenUntil: Date | null;
  entryId: string;
  externalRef: string | null;
}

export interface NewTransaction {
  type: LedgerTransactionType;
  initiatorUuid: string | null;
  subscriptionId: string | null;
  serverCount: number | null;
  duration: string | null;
  description: string | null;
  /** The description as a code and its values (TransactionDescription). */
  descriptionCode: TransactionDescriptionCode | null;
  descriptionValues: object | null;
  externalRef: string | null;
}

/** The only SQL of the ledger. Writers take the caller's transaction (EntityManager). */
@Injectable()
export class WalletRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Account ids never change once created, so this replica remembers them (a bounded map of
   * immutable facts: nothing two replicas could disagree on). Only committed rows are
   * remembered: an account created by the caller's transaction (which may still roll back) is
   * not, nor is one read while its creator's transaction was open.
   */
  private readonly ids = new Map<string, string>();

  /** The id of the account, created (empty) in the caller's transaction if missing. */
  async accountId(
    db: EntityManager | DataSource,
    kind: LedgerAccountKind,
    ownerUuid: string,
  ): Promise<string> {
    const key = `${kind}:${ownerUuid}`;
    const known = this.ids.get(key);
    if (known) return known;
    let found = await this.findWithOrigin(db, kind, ownerUuid);
    if (!found) {
      // ON CONFLICT DO NOTHING waits for a concurrent creator and then sees its committed row.
      await db.query(
        `INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES ($1, $2, $3)
         ON CONFLICT (kind, owner_uuid) DO NOTHING`,
        [randomUUID(), kind, ownerUuid],
      );
      found = (await this.findWithOrigin(db, kind, ownerUuid))!;
    }
    if (!found.ours) {
      if (this.ids.size >= MAX_REMEMBERED_IDS) this.ids.delete(this.ids.keys().next().value!);
      this.ids.set(key, found.id);
    }
    return found.id;
  }

  /** The account and whether the current transaction created it (then it is not committed). */
  private async findWithOrigin(
    db: EntityManager | DataSource,
    kind: LedgerAccountKind,
    ownerUuid: string,
  ): Promise<{ id: string; ours: boolean } | null> {
    const rows = await queryRows<{ id: string; ours: boolean }>(
      db,
      `SELECT id, xmin = pg_current_xact_id()::xid AS ours
       FROM ledger_accounts WHERE kind = $1 AND owner_uuid = $2`,
      [kind, ownerUuid],
    );
    return rows[0] ?? null;
  }

  /** Creates the account if missing, then locks its row until the caller's transaction ends. */
  async lockAccount(
    manager: EntityManager,
    kind: LedgerAccountKind,
    ownerUuid: string,
  ): Promise<LockedAccount> {
    const accountId = await this.accountId(manager, kind, ownerUuid);
    const rows = await queryRows<{ balance_micro: string }>(
      manager,
      `SELECT balance_micro FROM ledger_accounts WHERE id = $1 FOR UPDATE`,
      [accountId],
    );
    return { id: accountId, balanceMicro: BigInt(rows[0]!.balance_micro) };
  }

  /** Creates the account (empty) if missing, on its own; returns its id. */
  ensureAccount(kind: LedgerAccountKind, ownerUuid: string): Promise<string> {
    return this.accountId(this.dataSource, kind, ownerUuid);
  }

  /** The id of the account; null when it was never created (reading creates nothing). */
  async findAccountId(kind: LedgerAccountKind, ownerUuid: string): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM ledger_accounts WHERE kind = $1 AND owner_uuid = $2`,
      [kind, ownerUuid],
    );
    return rows[0]?.id ?? null;
  }

  /** The balances of an owner's accounts of these kinds (0 for an account never created). */
  async balancesOf<K extends LedgerAccountKind>(
    ownerUuid: string,
    kinds: readonly K[],
    db: EntityManager | DataSource = this.dataSource,
  ): Promise<Map<K, bigint>> {
    const rows = await queryRows<{ kind: K; balance_micro: string }>(
      db,
      `SELECT kind, balance_micro FROM ledger_accounts WHERE owner_uuid = $1 AND kind = ANY($2)`,
      [ownerUuid, kinds],
    );
    return new Map(
      kinds.map((kind) => [kind, BigInt(rows.find((r) => r.kind === kind)?.balance_micro ?? '0')]),
    );
  }

  async balance(accountId: string): Promise<bigint> {
    const rows = await queryRows<{ balance_micro: string }>(
      this.dataSource,
      `SELECT balance_micro FROM ledger_accounts WHERE id = $1`,
      [accountId],
    );
    return BigInt(rows[0]?.balance_micro ?? '0');
  }

  /**
   * Every kind's total balance and number of accounts (the metrics' ledger totals): one pass
   * over ledger_accounts, whose balances the trigger keeps, never over the entries.
   */
  async totalsByKind(): Promise<
    { kind: LedgerAccountKind; balanceMicro: bigint; accounts: number }[]
  > {
    const rows = await queryRows<{
      kind: LedgerAccountKind;
      balance_micro: string;
      accounts: number;
    }>(
      this.dataSource,
      `SELECT kind, sum(balance_micro)::text AS balance_micro, count(*)::int AS accounts
       FROM ledger_accounts GROUP BY kind ORDER BY kind`,
    );
    return rows.map((r) => ({
      kind: r.kind,
      balanceMicro: BigInt(r.balance_micro),
      accounts: r.accounts,
    }));
  }

  /**
   * Inserts transactions and their entries in one statement, through `ledger_post` (the one
   * writer of the ledger, src/wallet/sql/ledger_post.sql, which the purchase calls too): entries
   * go in account-id order so that concurrent transactions lock the wallets they touch in one
   * global order (no deadlocks); the balance trigger updates each wallet in the same statement.
   */
  async insertTransactions(
    manager: EntityManager,
    transactions: readonly {
      transaction: NewTransaction;
      entries: readonly { accountId: string; amountMicro: bigint; frozenUntil: Date | null }[];
    }[],
  ): Promise<string[]> {
    const ids = transactions.map(() => randomUUID());
    const rows = transactions.map(({ transaction, entries }, i) => ({
      id: ids[i]!,
      ...transaction,
      entries: entries.map((entry) => ({
        accountId: entry.accountId,
        amountMicro: entry.amountMicro.toString(),
        frozenUntil: entry.frozenUntil?.toISOString() ?? null,
      })),
    }));
    await manager.query(`SELECT ledger_post($1::jsonb)`, [JSON.stringify(rows)]);
    return ids;
  }

  /**
   * Writes transactions whose entries name their accounts by kind and owner (LedgerService.planUnwritten's
   * rows), in one statement through `ledger_post`, which creates missing accounts.
   */
  async insertPlanned(manager: EntityManager, planned: readonly object[]): Promise<void> {
    if (planned.length === 0) return;
    await manager.query(`SELECT ledger_post($1::jsonb)`, [JSON.stringify(planned)]);
  }

  /**
   * The ids of many accounts at once (kind and owner each), creating the missing ones (empty) in
   * the caller's transaction: one INSERT and one SELECT, however many. Keys are `kind:owner`.
   */
  async accountIds(
    manager: EntityManager,
    accounts: readonly { kind: LedgerAccountKind; owner: string }[],
  ): Promise<Map<string, string>> {
    const unique = new Map(accounts.map((a) => [`${a.kind}:${a.owner}`, a]));
    const kinds = [...unique.values()].map((a) => a.kind);
    const owners = [...unique.values()].map((a) => a.owner);
    // In key order, so concurrent creators wait for each other rather than deadlock.
    await manager.query(
      `INSERT INTO ledger_accounts (id, kind, owner_uuid)
       SELECT gen_random_uuid(), k, o FROM unnest($1::text[], $2::uuid[]) AS x(k, o)
       ORDER BY k, o ON CONFLICT (kind, owner_uuid) DO NOTHING`,
      [kinds, owners],
    );
    const rows = await queryRows<{ id: string; kind: string; owner_uuid: string }>(
      manager,
      `SELECT a.id, a.kind, a.owner_uuid FROM ledger_accounts a
       JOIN unnest($1::text[], $2::uuid[]) AS x(k, o) ON a.kind = x.k AND a.owner_uuid = x.o`,
      [kinds, owners],
    );
    return new Map(rows.map((row) => [`${row.kind}:${row.owner_uuid}`, row.id]));
  }

  /**
   * Locks the existing accounts of `kind` owned by `owners` (in id order, one statement) until
   * the caller's transaction ends; answers their balances by owner (a missing account is absent:
   * it holds nothing).
   */
  async lockAccounts(
    manager: EntityManager,
    kind: LedgerAccountKind,
    owners: readonly string[],
  ): Promise<Map<string, bigint>> {
    const locked = new Map<string, bigint>();
    if (owners.length === 0) return locked;
    const rows = await queryRows<{ owner_uuid: string; balance_micro: string }>(
      manager,
      `SELECT owner_uuid, balance_micro FROM ledger_accounts
       WHERE kind = $1 AND owner_uuid = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
      [kind, owners],
    );
    for (const row of rows) locked.set(row.owner_uuid, BigInt(row.balance_micro));
    return locked;
  }

  /** A wallet's entries, newest first, with their transaction. */
  async listEntries(
    accountId: string,
    limit: number,
    beforeEntryId?: string,
  ): Promise<TransactionRow[]> {
    const rows = await queryRows<{
      id: string;
      type: LedgerTransactionType;
      amount_micro: string;
      created_at: Date;
      subscription_id: string | null;
      server_count: number | null;
      duration: string | null;
      description: string | null;
      description_code: TransactionDescriptionCode | null;
      description_values: Record<string, string | number | boolean> | null;
      frozen_until: Date | null;
      entry_id: string;
      external_ref: string | null;
    }>(
      this.dataSource,
      `SELECT t.id, t.type, e.amount_micro, e.created_at, t.subscription_id, t.server_count,
              t.duration, t.description, t.description_code, t.description_values, e.frozen_until, e.id AS entry_id,
              t.external_ref
       FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
       WHERE e.account_id = $1 AND ($2::bigint IS NULL OR e.id < $2::bigint)
       ORDER BY e.id DESC
       LIMIT $3`,
      [accountId, beforeEntryId ?? null, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      amountMicro: r.amount_micro,
      createdAt: r.created_at,
      subscriptionId: r.subscription_id,
      serverCount: r.server_count,
      duration: r.duration,
      description: r.description,
      descriptionCode: r.description_code,
      descriptionValues: r.description_values,
      frozenUntil: r.frozen_until,
      entryId: r.entry_id,
      externalRef: r.external_ref,
    }));
  }

  /**
   * docs/product/records.md#dashboard-records: the wallet's one reading of frozen lots, the amounts of an account's entries
   * not yet thawed at `now`, grouped by when they thaw (a node wallet's frozen rewards, a stake's
   * locks). A debit carrying a lot's `frozen_until` (a refund taking back part of that reward)
   * shrinks that lot. The account by id, or by kind and owner (none: no lots).
   */
  async frozenLots(
    account: string | { kind: LedgerAccountKind; ownerUuid: string },
    now: Date,
    db: EntityManager | DataSource = this.dataSource,
  ): Promise<FrozenLot[]> {
    const byId = typeof account === 'string';
    const rows = await queryRows<{ amount_micro: string; frozen_until: Date }>(
      db,
      `SELECT sum(amount_micro)::text AS amount_micro, frozen_until FROM ledger_entries
       WHERE account_id = coalesce($1::uuid,
           (SELECT id FROM ledger_accounts WHERE kind = $2 AND owner_uuid = $3))
         AND frozen_until > $4
       GROUP BY frozen_until HAVING sum(amount_micro) > 0
       ORDER BY frozen_until`,
      [byId ? account : null, byId ? null : account.kind, byId ? null : account.ownerUuid, now],
    );
    return rows.map((r) => ({ amountMicro: BigInt(r.amount_micro), frozenUntil: r.frozen_until }));
  }
}
