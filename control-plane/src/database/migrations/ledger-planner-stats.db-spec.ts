import { migrationSpec } from '../../../test/support/migration-spec';
import { LedgerPlannerStats1764000003410 } from './1764000003410-ledger-planner-stats';

const spec = migrationSpec(new LedgerPlannerStats1764000003410());

/** Ledger transactions as the first deposits and purchases of a new installation write them. */
async function insertTransactions(count: number): Promise<void> {
  await spec.db.query(
    `INSERT INTO ledger_transactions (id, type, initiator_uuid, description)
     SELECT gen_random_uuid(), 'test_deposit', gen_random_uuid(), 'Deposit ' || n
     FROM generate_series(1, $1::int) n`,
    [count],
  );
}

/**
 * The plan a connection keeps for the foreign-key check of ledger_entries.transaction_id (the
 * query PostgreSQL runs for every ledger entry written; a generic plan, as a pooled connection
 * ends up keeping).
 */
async function foreignKeyCheckPlan(): Promise<string> {
  await spec.db.query(
    `PREPARE ledger_fk_check(uuid) AS
     SELECT 1 FROM ONLY ledger_transactions x WHERE id = $1 FOR KEY SHARE OF x`,
  );
  try {
    await spec.db.query(`SET plan_cache_mode = force_generic_plan`);
    const rows = await spec.db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN EXECUTE ledger_fk_check('00000000-0000-0000-0000-000000000000')`,
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await spec.db.query(`RESET plan_cache_mode`);
    await spec.db.query(`DEALLOCATE ledger_fk_check`);
  }
}

describe('migration 1764000003410: ledger planner statistics', () => {
  it('should check a ledger entry against its transaction by index when a fresh ledger has its first few hundred transactions', async () => {
    await insertTransactions(300);

    const plan = await foreignKeyCheckPlan();

    expect(plan).toMatch(/Index Scan using \S+ on ledger_transactions/);
    expect(plan).not.toMatch(/Seq Scan/);
  });

  it('should keep the statistics of a ledger that was counted', async () => {
    await spec.db.query(`ANALYZE ledger_transactions`);
    const [before] = await spec.db.query<{ relpages: number; reltuples: number }>(
      `SELECT relpages, reltuples FROM pg_class WHERE oid = 'ledger_transactions'::regclass`,
    );

    await spec.run('up');

    const [after] = await spec.db.query<{ relpages: number; reltuples: number }>(
      `SELECT relpages, reltuples FROM pg_class WHERE oid = 'ledger_transactions'::regclass`,
    );
    expect(before?.reltuples).toBeGreaterThan(300);
    expect(after).toEqual(before);
  });
});
