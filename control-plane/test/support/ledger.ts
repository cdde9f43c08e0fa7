import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { TRANSACTION_DESCRIPTION_CODES } from '@scn/proto';

/**
 * Test helper: a real ledger deposit from the `external` account into a wallet, written with
 * plain SQL in one transaction (the database's triggers keep the balance and check the sum),
 * so any test process (jest, the browser suite) can give an account SSL.
 */
export async function depositSsl(
  databaseUrl: string,
  ownerUuid: string,
  ssl: number | bigint,
  /** `stake`: a stake as a test fixture (the market's stakers first), without a node wallet. */
  wallet: 'client_wallet' | 'node_wallet' | 'stake' = 'client_wallet',
): Promise<void> {
  const micro = typeof ssl === 'bigint' ? ssl * 1_000_000n : BigInt(Math.round(ssl * 1_000_000));
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    const account = async (kind: string, owner: string): Promise<string> => {
      await client.query(
        `INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES ($1, $2, $3)
         ON CONFLICT (kind, owner_uuid) DO NOTHING`,
        [randomUUID(), kind, owner],
      );
      const { rows } = await client.query<{ id: string }>(
        `SELECT id FROM ledger_accounts WHERE kind = $1 AND owner_uuid = $2`,
        [kind, owner],
      );
      return rows[0]!.id;
    };
    const external = await account('external', '00000000-0000-0000-0000-000000000000');
    const target = await account(wallet, ownerUuid);
    const transactionId = randomUUID();
    await client.query(
      `INSERT INTO ledger_transactions (id, type, initiator_uuid, description)
       VALUES ($1, 'test_deposit', $2, 'Test deposit')`,
      [transactionId, ownerUuid],
    );
    await client.query(
      `INSERT INTO ledger_entries (transaction_id, account_id, amount_micro) VALUES ($1, $2, $3), ($1, $4, $5)`,
      [transactionId, external, (-micro).toString(), target, micro.toString()],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * The ledger's invariants: every transaction sums to zero, wallets equal their entries, none
 * negative; and every movement our code writes (it has English words) names one of
 * TRANSACTION_DESCRIPTION_CODES with its values, so each writer a suite exercises
 * is checked. The genesis (migration 2400) and test fixtures written around the service predate
 * or skip the codes.
 */
export async function ledgerViolations(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const problems: string[] = [];
    const unbalanced = await client.query(
      `SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_micro) <> 0`,
    );
    for (const row of unbalanced.rows)
      problems.push(`unbalanced transaction ${row.transaction_id}`);
    const mismatched = await client.query(
      `SELECT a.id FROM ledger_accounts a
       LEFT JOIN (SELECT account_id, sum(amount_micro) AS total FROM ledger_entries GROUP BY account_id) s
         ON s.account_id = a.id
       WHERE a.kind IN ('client_wallet', 'node_wallet', 'stake', 'reward_escrow') AND a.balance_micro <> COALESCE(s.total, 0)`,
    );
    for (const row of mismatched.rows)
      problems.push(`balance of ${row.id} differs from its entries`);
    const negative = await client.query(
      `SELECT id FROM ledger_accounts WHERE kind IN ('client_wallet', 'node_wallet', 'stake', 'reward_escrow') AND balance_micro < 0`,
    );
    for (const row of negative.rows) problems.push(`negative wallet ${row.id}`);
    const total = await client.query(
      `SELECT COALESCE(sum(amount_micro), 0)::text AS t FROM ledger_entries`,
    );
    if (total.rows[0].t !== '0') problems.push(`the ledger sums to ${total.rows[0].t}`);
    const undescribed = await client.query<{ type: string; description: string }>(
      `SELECT type, description FROM ledger_transactions
       WHERE description IS NOT NULL AND type NOT IN ('genesis', 'test_deposit')
         AND (description_code IS NULL OR NOT (description_code = ANY($1::text[]))
              OR jsonb_typeof(description_values) IS DISTINCT FROM 'object')`,
      [TRANSACTION_DESCRIPTION_CODES],
    );
    for (const row of undescribed.rows)
      problems.push(`${row.type} "${row.description}" has no known description code`);
    return problems;
  } finally {
    await client.end();
  }
}
