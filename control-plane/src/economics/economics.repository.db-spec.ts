import { randomUUID } from 'node:crypto';
import { REWARD_POOL_GENESIS_MICRO } from '@scn/proto';
import { ledgerViolations } from '../../test/support/ledger';
import { insertAgentServer, repositoryDatabase } from '../../test/support/server-rows';
import { TransactionRunner } from '../database/transaction-runner';

import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { EconomicsRepository } from './economics.repository';

const t = repositoryDatabase();
const SSL = 1_000_000n;

describe('EconomicsRepository.facts', () => {
  it('should read the pool from its entries, what it paid by month, the stakes and the servers', async () => {
    const repository = new EconomicsRepository(t.dataSource);
    const now = new Date();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const lastMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const fresh = await repository.facts(now, lastMonthStart, monthStart);
    expect(fresh).toMatchObject({
      poolMicro: REWARD_POOL_GENESIS_MICRO,
      totalPaidMicro: 0n,
      totalInflowMicro: 0n,
      servers: 0,
      totalStakeMicro: 0n,
      stakers: 0,
    });
    expect(fresh.genesisAt).toBeInstanceOf(Date);

    // The pool pays an operator 100 SSL (40 of it staked) and receives a 9 SSL promotion fee.
    const ledger = new LedgerService(new WalletRepository(t.dataSource));
    const operator = randomUUID();
    await new TransactionRunner(t.dataSource).run(async (tx) => {
      await ledger.post(tx, {
        type: 'monthly_reward',
        postings: [
          { account: { system: 'reward_pool' }, amountMicro: -100n * SSL },
          { account: { wallet: 'node_wallet', ownerUuid: operator }, amountMicro: 60n * SSL },
          { account: { wallet: 'stake', ownerUuid: operator }, amountMicro: 40n * SSL },
        ],
      });
      await ledger.post(tx, {
        type: 'promotion',
        postings: [
          { account: { wallet: 'node_wallet', ownerUuid: operator }, amountMicro: -10n * SSL },
          { account: { system: 'burn' }, amountMicro: 1n * SSL },
          { account: { system: 'reward_pool' }, amountMicro: 9n * SSL },
        ],
      });
    });
    const reporting = await insertAgentServer(t.db);
    const hidden = await insertAgentServer(t.db);
    const banned = await insertAgentServer(t.db);
    const silent = await insertAgentServer(t.db);
    await t.db.query(`UPDATE servers SET reliability_at_report = 90 WHERE id = $1`, [hidden]);
    await t.db.query(`UPDATE servers SET banned_at = now() WHERE id = $1`, [banned]);
    await t.db.query(
      `UPDATE servers SET last_report_at = now() - interval '2 hours' WHERE id = $1`,
      [silent],
    );
    expect(reporting).toBeTruthy();

    const facts = await repository.facts(new Date(), lastMonthStart, monthStart);
    expect(facts).toMatchObject({
      poolMicro: REWARD_POOL_GENESIS_MICRO - 91n * SSL,
      totalPaidMicro: 100n * SSL,
      totalInflowMicro: 9n * SSL,
      // Paid this month, not in the last completed one.
      lastMonthPaidMicro: 0n,
      servers: 3,
      reportingServers: 2,
      hiddenServers: 1,
      reportingReliabilitySum: 190,
      totalStakeMicro: 40n * SSL,
      stakers: 1,
    });
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const later = await repository.facts(nextMonth, monthStart, nextMonth);
    expect(later.lastMonthPaidMicro).toBe(100n * SSL);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});
