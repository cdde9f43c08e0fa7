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
  it('should read the pool from its entries, what it paid for a month, the stakes and the servers', async () => {
    const repository = new EconomicsRepository(t.dataSource);
    const now = new Date();
    const fresh = await repository.facts(now, '2026-10');
    expect(fresh).toMatchObject({
      poolMicro: REWARD_POOL_GENESIS_MICRO,
      totalPaidMicro: 0n,
      totalInflowMicro: 0n,
      servers: 0,
      totalStakeMicro: 0n,
      stakers: 0,
    });
    expect(fresh.genesisAt).toBeInstanceOf(Date);

    // The pool pays an operator October's reward, 100 SSL (40 of it staked), and its staking
    // income, and a September reward of 7 SSL; it receives a 9 SSL promotion fee.
    const ledger = new LedgerService(new WalletRepository(t.dataSource));
    const operator = randomUUID();
    const server = randomUUID();
    await new TransactionRunner(t.dataSource).run(async (tx) => {
      await ledger.lockAndPost(tx, {
        type: 'monthly_reward',
        describedAs: { code: 'monthly_reward' as const, values: { period: '2026-01' } },
        externalRef: `reward:${server}:2026-10`,
        postings: [
          { account: { system: 'reward_pool' }, amountMicro: -100n * SSL },
          { account: { wallet: 'node_wallet', ownerUuid: operator }, amountMicro: 60n * SSL },
          { account: { wallet: 'stake', ownerUuid: operator }, amountMicro: 40n * SSL },
        ],
      });
      await ledger.lockAndPost(tx, {
        type: 'staking_reward',
        describedAs: { code: 'staking_income' as const, values: { period: '2026-01' } },
        externalRef: `stake-income:${operator}:2026-10`,
        postings: [
          { account: { system: 'reward_pool' }, amountMicro: -2n * SSL },
          { account: { wallet: 'node_wallet', ownerUuid: operator }, amountMicro: 2n * SSL },
        ],
      });
      await ledger.lockAndPost(tx, {
        type: 'monthly_reward',
        describedAs: { code: 'monthly_reward' as const, values: { period: '2026-01' } },
        externalRef: `reward:${server}:2026-09`,
        postings: [
          { account: { system: 'reward_pool' }, amountMicro: -7n * SSL },
          { account: { wallet: 'node_wallet', ownerUuid: operator }, amountMicro: 7n * SSL },
        ],
      });
      await ledger.lockAndPost(tx, {
        type: 'promotion',
        describedAs: {
          code: 'promotion' as const,
          values: { plan: 'basic' as const, server: 'Server' },
        },
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

    const facts = await repository.facts(new Date(), '2026-10');
    expect(facts).toMatchObject({
      poolMicro: REWARD_POOL_GENESIS_MICRO - 100n * SSL,
      totalPaidMicro: 109n * SSL,
      totalInflowMicro: 9n * SSL,
      // October's payout: its statement and its staking income, whenever they were paid.
      lastMonthPaidMicro: 102n * SSL,
      servers: 3,
      reportingServers: 2,
      hiddenServers: 1,
      reportingReliabilitySum: 190,
      totalStakeMicro: 40n * SSL,
      stakers: 1,
    });
    expect((await repository.facts(new Date(), '2026-09')).lastMonthPaidMicro).toBe(7n * SSL);
    expect((await repository.facts(new Date(), '2026-08')).lastMonthPaidMicro).toBe(0n);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});
