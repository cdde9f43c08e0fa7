import { ListingLocksRepository } from '../market/listing-locks.repository';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MICRO_PER_SSL } from '@scn/proto';
import { DataSource } from 'typeorm';
import { ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import {
  balanceOf,
  insertHistory,
  ledgerAt,
  poolBalance,
  SYSTEM,
} from '../../test/support/reward-fixtures';
import { SmtpCapture } from '../../test/support/smtp-capture';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { AppConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { MailService } from '../mail/mail.service';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { RewardComputer } from './reward-computer';
import { RewardEscrowRepository } from './reward-escrow.repository';
import { RewardEscrowService } from './reward-escrow.service';
import { RewardFactsRepository } from './reward-facts.repository';
import { RewardRunService } from './reward-run.service';
import { RewardStatementsRepository } from './reward-statements.repository';
import { RewardsJob } from './rewards.job';
import { RewardsTickService } from './rewards-tick.service';
import { JobRunsRepository } from '../jobs/job-runs.repository';
import { JobScheduler } from '../jobs/job-scheduler';

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
let now = new Date('2026-10-01T02:00:00Z');
const clock = { now: () => now };

let db: TestDatabase;
let smtp: SmtpCapture;
const sources: DataSource[] = [];

function mailService(smtpUrl: string): MailService {
  return new MailService({
    smtpUrl,
    mailFrom: 'SCN <no-reply@scn.test>',
    dataDir: mkdtempSync(join(tmpdir(), 'scn-rewards-')),
    nodeEnv: 'test',
  } as AppConfig);
}

/** A replica: its own connection pool and services. */
async function replica(smtpUrl = smtp.url) {
  const dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  sources.push(dataSource);
  const ledger = new LedgerService(new WalletRepository(dataSource));
  const transactions = new TransactionRunner(dataSource);
  const runs = new RewardRunService(
    new RewardComputer(new RewardFactsRepository(dataSource)),
    new RewardStatementsRepository(dataSource),
    ledger,
    transactions,
    clock,
    new ListingLocksRepository(),
  );
  const escrow = new RewardEscrowService(
    new RewardEscrowRepository(dataSource),
    ledger,
    transactions,
    mailService(smtpUrl),
    { publicUrl: 'https://scn.test' } as AppConfig,
    clock,
  );
  const scheduler = new JobScheduler(new JobRunsRepository(dataSource));
  const job = new RewardsJob(new RewardsTickService(runs, escrow, clock), transactions, scheduler);
  return { job, escrow, dataSource };
}

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await SmtpCapture.start();
});
afterAll(async () => {
  for (const source of sources) await source.destroy();
  await smtp.stop();
  await db.drop();
});

async function operatorServer(
  period: string,
  days: number,
  changes: { belowThresholdSince?: Date | null; bannedAt?: Date | null; email?: string } = {},
) {
  const operator = await insertAccount(db, { email: changes.email });
  const [server] = await insertServers(
    db,
    [{ ownerUuid: operator, tier: 'tier2', bannedAt: changes.bannedAt ?? null }],
    new Date(`${period}-01T00:00:00Z`),
  );
  if (changes.belowThresholdSince) {
    await db.query(`UPDATE servers SET below_threshold_since = $2 WHERE id = $1`, [
      server,
      changes.belowThresholdSince,
    ]);
  }
  await insertHistory(db, {
    serverId: server!,
    ownerUuid: operator,
    tier: 'tier2',
    from: `${period}-01`,
    to: `${period}-${days}`,
  });
  return { operator, server: server! };
}

describe('RewardsJob', () => {
  it('should let one of two replicas run a tick, and pay the ended month only an hour after it ends', async () => {
    const first = await replica();
    const second = await replica();
    const { operator, server } = await operatorServer('2026-09', 30);
    now = new Date('2026-10-01T00:30:00Z');
    const early = await first.job.runOnce();
    expect(early?.runs).toEqual([]);
    now = new Date('2026-10-01T01:00:00Z');

    let other: Awaited<ReturnType<RewardsJob['runOnce']>> | undefined;
    const ran = await first.job.runOnce({
      // While this replica holds the run, the other one tries and is turned away.
      afterBatch: async () => {
        other = await second.job.runOnce();
      },
    });
    expect(other).toBeNull();
    expect(ran?.runs).toEqual([
      { period: '2026-09', computed: true, paid: 1, stakingPaid: 0, finished: true },
    ]);
    expect(await balanceOf(db, 'node_wallet', operator)).toBe(ssl(625));
    // Later ticks find the month paid.
    const later = await second.job.runOnce();
    expect(later?.runs).toEqual([
      { period: '2026-09', computed: false, paid: 0, stakingPaid: 0, finished: true },
    ]);
    const refs = await db.query(`SELECT 1 FROM ledger_transactions WHERE external_ref = $1`, [
      `reward:${server}:2026-09`,
    ]);
    expect(refs).toHaveLength(1);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it("should escrow a hidden server's whole reward, release it on recovery once, and forfeit a banned one's", async () => {
    const { job } = await replica();
    now = new Date('2026-08-01T02:00:00Z');
    const hidden = await operatorServer('2026-07', 31, {
      belowThresholdSince: new Date('2026-07-31T20:00:00Z'),
    });
    const doomed = await operatorServer('2026-07', 31, {
      belowThresholdSince: new Date('2026-07-30T00:00:00Z'),
    });
    const poolBefore = await poolBalance(db);
    const tick = await job.runOnce();
    expect(tick?.escrow).toMatchObject({ released: 0, forfeited: 0 });
    const [statement] = await db.query<{
      withheld: string;
      escrowed_micro: string;
      wallet_micro: string;
    }>(
      `SELECT withheld, escrowed_micro, wallet_micro FROM reward_statements WHERE server_id = $1`,
      [hidden.server],
    );
    expect(statement).toEqual({
      withheld: 'hidden',
      escrowed_micro: ssl(625).toString(),
      wallet_micro: '0',
    });
    expect(await balanceOf(db, 'reward_escrow', hidden.server)).toBe(ssl(625));
    expect(await balanceOf(db, 'node_wallet', hidden.operator)).toBe(0n);

    // One recovers (the sweep clears its window); the other is banned.
    await db.query(`UPDATE servers SET below_threshold_since = NULL WHERE id = $1`, [
      hidden.server,
    ]);
    await db.query(`UPDATE servers SET banned_at = $2 WHERE id = $1`, [doomed.server, now]);
    now = new Date('2026-08-03T00:00:00Z');
    const settled = await job.runOnce();
    expect(settled?.escrow).toEqual({
      released: 1,
      forfeited: 1,
      releasedMicro: ssl(625),
      forfeitedMicro: ssl(625),
    });
    expect(await balanceOf(db, 'reward_escrow', hidden.server)).toBe(0n);
    expect(await balanceOf(db, 'reward_escrow', doomed.server)).toBe(0n);
    expect(await balanceOf(db, 'node_wallet', hidden.operator)).toBe(ssl(625));
    expect(await balanceOf(db, 'node_wallet', doomed.operator)).toBe(0n);
    // The pool paid one escrow out for good and got the other back.
    expect(poolBefore - (await poolBalance(db))).toBe(ssl(625));
    const [release] = await db.query<{ type: string; frozen_until: Date }>(
      `SELECT t.type, e.frozen_until FROM ledger_entries e
       JOIN ledger_transactions t ON t.id = e.transaction_id
       JOIN ledger_accounts a ON a.id = e.account_id
       WHERE a.kind = 'node_wallet' AND a.owner_uuid = $1 AND t.type = 'reward_release'`,
      [hidden.operator],
    );
    expect(release).toEqual({
      type: 'reward_release',
      frozen_until: new Date('2026-10-02T00:00:00Z'),
    });
    const again = await job.runOnce();
    expect(again?.escrow).toMatchObject({ released: 0, forfeited: 0 });
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should mail each ban to its operator once, and try again when the mail failed', async () => {
    const email = `banned.${randomUUID()}@example.com`;
    now = new Date('2026-11-02T00:00:00Z');
    const { server } = await operatorServer('2026-10', 31, {
      email,
      belowThresholdSince: new Date('2026-10-18T00:00:00Z'),
    });
    await db.query(`UPDATE servers SET banned_at = $2 WHERE id = $1`, [server, now]);
    // An SMTP server that refuses connections: the claim is given back.
    const broken = await replica('smtp://127.0.0.1:1');
    expect(await broken.escrow.notifyBans()).toBe(0);
    const working = await replica();
    const since = smtp.mails.length;
    expect(await working.escrow.notifyBans()).toBeGreaterThanOrEqual(1);
    const mail = await smtp.waitFor(email, { since });
    expect(mail.subject).toMatch(/was banned/);
    expect(mail.text).toContain('below 95% since Oct 18, 2026');
    expect(mail.text).toContain('within 14 days');
    expect(await working.escrow.notifyBans()).toBe(0);
    expect(smtp.mails.slice(since).filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it("should attribute a period's subscription rewards to the servers of each operator they paid for", async () => {
    const client = await insertAccount(db, { userType: 'client' });
    const a = await insertAccount(db);
    const b = await insertAccount(db);
    const [a1, a2, b1] = await insertServers(
      db,
      [
        { ownerUuid: a, tier: 'tier1' },
        { ownerUuid: a, tier: 'tier1' },
        { ownerUuid: b, tier: 'tier1' },
      ],
      new Date('2026-05-01T00:00:00Z'),
    );
    const subscription = async (servers: string[]) => {
      const id = randomUUID();
      await db.query(
        `INSERT INTO subscriptions (id, owner_uuid, vless_uuid, status, billing_cycle, expires_at)
         VALUES ($1, $2, $3, 'active', 'hourly', '2026-07-01')`,
        [id, client, randomUUID()],
      );
      for (const [position, serverId] of servers.entries()) {
        await db.query(
          `INSERT INTO subscription_servers (subscription_id, server_id, position) VALUES ($1, $2, $3)`,
          [id, serverId, position],
        );
      }
      return id;
    };
    const reward = (at: string, subscriptionId: string, owner: string, servers: number) =>
      ledgerAt(
        db,
        new Date(at),
        'subscription_reward',
        [
          ['platform_revenue', SYSTEM, -ssl(10 * servers)],
          ['node_wallet', owner, ssl(10 * servers)],
        ],
        { subscriptionId, serverCount: servers },
      );
    const both = await subscription([a1!, a2!, b1!]);
    const onlyA1 = await subscription([a1!]);
    await reward('2026-05-03T10:00:00Z', both, a, 2);
    await reward('2026-05-03T10:00:00Z', both, b, 1);
    await reward('2026-05-10T10:00:00Z', onlyA1, a, 1);
    await reward('2026-05-14T10:00:00Z', onlyA1, a, 1);
    await reward('2026-06-01T00:00:00Z', onlyA1, a, 1); // the next period
    const owners: Array<[string, string]> = [
      [a1!, a],
      [a2!, a],
      [b1!, b],
    ];
    for (const [serverId, owner] of owners) {
      await insertHistory(db, {
        serverId,
        ownerUuid: owner,
        tier: 'tier1',
        from: '2026-05-01',
        to: '2026-05-31',
      });
    }
    now = new Date('2026-06-01T01:00:00Z');
    const { job } = await replica();
    await job.runOnce();
    const lines = await db.query<{
      server_id: string;
      subscription_clients: number;
      subscription_micro: string;
      income_micro: string;
    }>(
      `SELECT server_id, subscription_clients, subscription_micro, income_micro FROM reward_statements
       WHERE period = '2026-05-01' ORDER BY subscription_micro DESC`,
    );
    const byServer = new Map(lines.map((l) => [l.server_id, l]));
    expect(byServer.get(a1!)).toMatchObject({
      subscription_clients: 2,
      subscription_micro: ssl(30).toString(),
    });
    expect(byServer.get(a2!)).toMatchObject({
      subscription_clients: 1,
      subscription_micro: ssl(10).toString(),
    });
    expect(byServer.get(b1!)).toMatchObject({
      subscription_clients: 1,
      subscription_micro: ssl(10).toString(),
      income_micro: ssl(250 + 10).toString(),
    });
    // Subscription rewards are already paid by clients: the pool pays the base only.
    expect(await balanceOf(db, 'node_wallet', b)).toBe(ssl(10) + ssl(250));
    expect(await ledgerViolations(db.url)).toEqual([]);
  });
});
