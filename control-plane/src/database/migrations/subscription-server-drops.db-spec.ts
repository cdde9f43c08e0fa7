import { randomUUID } from 'node:crypto';
import { migrationSpec } from '../../../test/support/migration-spec';
import { SubscriptionServerDrops1764000004230 } from './1764000004230-subscription-server-drops';

const spec = migrationSpec(new SubscriptionServerDrops1764000004230());

describe('migration 1764000004230: subscription server drops', () => {
  it('should keep the drops recorded and the drop job heartbeat across the rename, both ways', async () => {
    await spec.run('down');
    const since = new Date('2026-11-01T00:00:00Z');
    const last = new Date('2026-11-20T12:00:00Z');
    await spec.db.query(
      `INSERT INTO job_heartbeats (job, last_run_at, watching_since)
       VALUES ('server-withdrawal', $1, $2)`,
      [last, since],
    );
    // A drop recorded before the rename (its subscription row is not needed once inserted).
    const id = randomUUID();
    const subscription = randomUUID();
    await spec.db.query(`SET session_replication_role = replica`);
    await spec.db.query(
      `INSERT INTO subscription_withdrawals (id, subscription_id, server_id, server_name,
         period_index, reason, unable_since, withdrawn_at, refund_micro)
       VALUES ($1, $2, $3, 'Alpha', 1, 'banned', $4, $5, 100)`,
      [id, subscription, randomUUID(), since, last],
    );
    await spec.db.query(`SET session_replication_role = DEFAULT`);

    await spec.run('up');
    expect(await spec.db.query(`SELECT job, watching_since FROM job_heartbeats`)).toEqual([
      { job: 'server-drop', watching_since: since },
    ]);
    expect(
      await spec.db.query(`SELECT id, server_name, dropped_at FROM subscription_server_drops`),
    ).toEqual([{ id, server_name: 'Alpha', dropped_at: last }]);
    await expect(
      spec.db.query(`UPDATE subscription_server_drops SET refund_micro = -1`),
    ).rejects.toThrow(/ck_subscription_server_drops_refund/);

    await spec.run('down');
    expect(await spec.db.query(`SELECT job FROM job_heartbeats`)).toEqual([
      { job: 'server-withdrawal' },
    ]);
    expect(await spec.db.query(`SELECT id, withdrawn_at FROM subscription_withdrawals`)).toEqual([
      { id, withdrawn_at: last },
    ]);
    await spec.run('up');
  });
});
