import { MICRO_PER_SSL } from '@scn/proto';
import { poolView, serverStatementView, stakingView } from './earnings-view';
import type { StakingRow, StatementRow } from './reward-computer';

const ssl = (value: number) => (BigInt(value) * MICRO_PER_SSL).toString();

function statement(changes: Partial<StatementRow> = {}): StatementRow {
  return {
    serverId: 's1',
    period: '2026-10-01',
    ownerUuid: 'o1',
    tier: 'tier3',
    serverState: 'active',
    periodSeconds: 31 * 86_400,
    observedSeconds: 31 * 86_400,
    reliabilitySeconds: String(100 * 31 * 86_400),
    belowSeconds: 0,
    enrolledAt: new Date('2026-01-10T00:00:00Z'),
    hardwareSince: new Date('2026-01-10T00:00:00Z'),
    nodeYear: 1,
    stakeMicro: '0',
    requiredBeforeMicro: '0',
    halvingCut: false,
    requiredStakeMicro: ssl(340),
    tierBaseMicro: ssl(1500),
    proRataMicro: ssl(1500),
    reliabilityBasisPoints: 10_000,
    slashBasisPoints: 0,
    earnedMicro: ssl(1500),
    frozenMicro: '0',
    payableMicro: ssl(1500),
    subscriptionClients: 20,
    subscriptionMicro: ssl(200),
    adBonusMicro: '0',
    incomeMicro: ssl(1700),
    withheld: null,
    poolWalletMicro: ssl(1500),
    poolEscrowMicro: '0',
    scaleNumeratorMicro: '1',
    scaleDenominatorMicro: '1',
    paidPayableMicro: ssl(1500),
    escrowedMicro: '0',
    autoStakePercent: 50,
    autoStakedMicro: ssl(750),
    walletMicro: ssl(750),
    status: 'paid',
    computedAt: new Date('2026-11-01T01:00:00Z'),
    paidAt: new Date('2026-11-01T01:00:01Z'),
    ledgerTransactionId: 't1',
    ...changes,
  };
}

describe('serverStatementView', () => {
  it('should explain each line of the formula with its figures, in order', () => {
    const view = serverStatementView(statement(), 'Frankfurt 1', false);
    expect(view.lines.map((l) => l.key)).toEqual([
      'base',
      'reliability',
      'frozen',
      'halving',
      'subscriptions',
      'ad_bonus',
      'income',
      'budget',
      'payout',
    ]);
    const text = Object.fromEntries(view.lines.map((l) => [l.key, l.explanation]));
    expect(text.base).toBe(
      'Tier tier3 (4 Cores / 4GB RAM): 1500.00 SSL a month, for 31.0 of 31.0 days enrolled: 1500.00 SSL.',
    );
    expect(text.reliability).toContain(
      'Time-weighted reliability 100.00%: slash 2 x (100% - 100.00%) = 0.00%',
    );
    expect(text.frozen).toBe('Never below 95%: nothing frozen.');
    expect(text.income).toBe(
      'Base reward + clients x 10 + ad bonus = 1500.00 SSL + 200.00 SSL + 0.00 SSL = 1700.00 SSL.',
    );
    expect(text.budget).toContain('paid in full');
    expect(text.payout).toContain('Auto-stake 50%: 750.00 SSL to your stake');
    expect(view).toMatchObject({
      serverName: 'Frankfurt 1',
      status: 'paid',
      paidAt: '2026-11-01T01:00:01.000Z',
    });
  });

  it('should say why a statement is withheld, and when the budget scaled it', () => {
    const banned = serverStatementView(
      statement({
        withheld: 'banned',
        serverState: 'banned',
        status: 'withheld',
        walletMicro: '0',
      }),
      null,
      false,
    );
    expect(banned.lines.find((l) => l.key === 'budget')!.explanation).toContain('never paid');
    const scaled = serverStatementView(
      statement({
        scaleNumeratorMicro: ssl(1),
        scaleDenominatorMicro: ssl(2),
        paidPayableMicro: ssl(750),
      }),
      null,
      true,
    );
    expect(scaled.status).toBe('dry_run');
    expect(scaled.lines.find((l) => l.key === 'budget')!.explanation).toContain(
      'scaled by 1.00 SSL / 2.00 SSL: 750.00 SSL',
    );
  });
});

describe('stakingView and poolView', () => {
  it('should explain staking income on the stake held through the month', () => {
    const row: StakingRow = {
      ownerUuid: 'o1',
      period: '2026-10-01',
      stakeAtStartMicro: ssl(852),
      stakeAtEndMicro: ssl(1000),
      incomeMicro: '8520000',
      scaleNumeratorMicro: '1',
      scaleDenominatorMicro: '1',
      paidMicro: '8520000',
      status: 'paid',
      computedAt: new Date(),
      paidAt: null,
      ledgerTransactionId: null,
    };
    expect(stakingView(row, false).explanation).toContain(
      'the smaller of 852.00 SSL at its start and 1000.00 SSL at its end, 852.00 SSL, x 12% / 12 = 8.52 SSL',
    );
  });

  it("should state the budget from the pool and the cycle's months left", () => {
    const view = poolView({
      poolMicro: BigInt(ssl(1200)),
      monthIndex: 13,
      budgetMicro: BigInt(ssl(109)),
      demandMicro: BigInt(ssl(50)),
      scaleNumeratorMicro: 1n,
      scaleDenominatorMicro: 1n,
    });
    expect(view.explanation).toContain(
      'month 2 of the 12-month cycle, so the budget is the pool / 11 months left',
    );
    expect(view.explanation).toContain('within the budget, paid in full');
  });
});
