import type { MigrationInterface, QueryRunner } from 'typeorm';
import { REWARD_POOL_GENESIS_MICRO } from '@scn/proto';
import { sqlFunction } from '../sql-functions';

const OLD_KINDS = `'client_wallet', 'node_wallet', 'external', 'platform_revenue', 'burn'`;
const KINDS = `'client_wallet', 'node_wallet', 'stake', 'reward_escrow', 'external', 'platform_revenue', 'burn', 'supply', 'reward_pool'`;
const OWNED = `'client_wallet', 'node_wallet', 'stake', 'reward_escrow'`;
const WALLETS = `'client_wallet', 'node_wallet'`;
const NIL = '00000000-0000-0000-0000-000000000000';
/** The genesis transaction's id, fixed so that a revert finds it. */
const GENESIS_ID = '5c0a7e4e-0000-4000-8000-000000000001';

/**
 * The operators' economy in the ledger: stakes and reward escrows are owned accounts
 * with kept, non-negative balances like wallets; `supply` and `reward_pool` are system accounts.
 * The pool receives 15% of the 10 billion SSL supply once, as the `genesis` transaction (its
 * external ref makes it unique), so every base reward and staking income is an entry out of it.
 */
export class EconomyLedger1764000002400 implements MigrationInterface {
  name = 'EconomyLedger1764000002400';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.checks(queryRunner, KINDS, OWNED);
    await queryRunner.query(sqlFunction('ledger_apply_entry'));
    await queryRunner.query(`SELECT ledger_post($1::jsonb)`, [
      JSON.stringify([
        {
          id: GENESIS_ID,
          type: 'genesis',
          description: 'Reward pool: 15% of the 10,000,000,000 SSL supply',
          externalRef: 'genesis:reward_pool',
          entries: [
            { kind: 'supply', owner: NIL, amountMicro: (-REWARD_POOL_GENESIS_MICRO).toString() },
            { kind: 'reward_pool', owner: NIL, amountMicro: REWARD_POOL_GENESIS_MICRO.toString() },
          ],
        },
      ]),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The ledger is append-only: only a database where the economy never moved money goes back
    // (its one economy transaction is the genesis), and the genesis is taken out with it.
    // ledger_apply_entry keeps its body: it names kinds the restored CHECK no longer allows.
    const [row] = (await queryRunner.query(
      `SELECT count(*)::int AS count FROM ledger_entries e
       JOIN ledger_accounts a ON a.id = e.account_id
       WHERE a.kind IN ('stake', 'reward_escrow', 'supply', 'reward_pool')
         AND e.transaction_id <> $1`,
      [GENESIS_ID],
    )) as Array<{ count: number }>;
    if ((row?.count ?? 0) > 0)
      throw new Error('the economy has moved money: migration 2400 cannot be reverted');
    await queryRunner.query(
      `ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only`,
    );
    await queryRunner.query(
      `ALTER TABLE ledger_transactions DISABLE TRIGGER ledger_transactions_append_only`,
    );
    await queryRunner.query(`DELETE FROM ledger_entries WHERE transaction_id = $1`, [GENESIS_ID]);
    await queryRunner.query(`DELETE FROM ledger_transactions WHERE id = $1`, [GENESIS_ID]);
    await queryRunner.query(`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only`);
    await queryRunner.query(
      `ALTER TABLE ledger_transactions ENABLE TRIGGER ledger_transactions_append_only`,
    );
    await queryRunner.query(
      `DELETE FROM ledger_accounts WHERE kind IN ('stake', 'reward_escrow', 'supply', 'reward_pool')`,
    );
    await this.checks(queryRunner, OLD_KINDS, WALLETS);
  }

  private async checks(queryRunner: QueryRunner, kinds: string, owned: string): Promise<void> {
    for (const name of ['kind', 'wallet_not_negative', 'wallet_owner']) {
      await queryRunner.query(
        `ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ck_ledger_accounts_${name}"`,
      );
    }
    await queryRunner.query(
      `ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ck_ledger_accounts_kind" CHECK ("kind" IN (${kinds}))`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ck_ledger_accounts_wallet_not_negative" CHECK ("kind" NOT IN (${owned}) OR "balance_micro" >= 0)`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ck_ledger_accounts_wallet_owner" CHECK (("kind" IN (${owned})) = ("owner_uuid" <> '${NIL}'))`,
    );
  }
}
