import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Forgets the size that migration 2600 recorded for `ledger_transactions` on a fresh database,
 * so that the ledger's foreign-key checks probe its primary key (docs/benchmarks.md, "Purchases").
 *
 * On a fresh database the table holds only the genesis (migration 2400) when migration 2600
 * builds its BRIN index, and CREATE INDEX stores the size it saw: 1 page, 1 row. The planner
 * then takes the table for one row per page and prices a sequential scan below an index probe
 * while the table is a few pages, so every connection that first plans the foreign-key check of
 * `ledger_entries.transaction_id` then (the first purchases or deposits) keeps a plan that reads
 * the whole table for every ledger entry it writes, growing with the ledger until autovacuum
 * happens to analyze the table. A table that was never counted is priced as at least 10 pages,
 * which gives the index probe from the start, as before migration 2600. Only those genesis-sized
 * statistics are forgotten: a database migrated with a real ledger keeps the size it counted.
 *
 * `pg_clear_relation_stats` (PostgreSQL 18, the embedded server) needs only ownership of the
 * table; on older servers clearing them is a write to the catalogue that only a superuser may
 * make. Without either, the next ANALYZE (autovacuum's) replaces them with the real size.
 */
export class LedgerPlannerStats1764000003410 implements MigrationInterface {
  name = 'LedgerPlannerStats1764000003410';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_class WHERE oid = 'ledger_transactions'::regclass
                 AND relpages <= 1 AND reltuples BETWEEN 0 AND 1) THEN
    RETURN;
  END IF;
  IF to_regprocedure('pg_clear_relation_stats(text, text)') IS NOT NULL THEN
    PERFORM pg_clear_relation_stats(current_schema(), 'ledger_transactions');
  ELSIF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    UPDATE pg_class SET relpages = 0, reltuples = -1, relallvisible = 0
    WHERE oid = 'ledger_transactions'::regclass;
  END IF;
END $$`);
  }

  public async down(): Promise<void> {
    // Nothing to undo: the planner's statistics are not schema, and the next ANALYZE sets them.
  }
}
