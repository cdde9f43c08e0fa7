import { MICRO_PER_SSL } from '@scn/proto';
import { periodBounds } from './reward-period';
import { budgetScale, UNSCALED } from './reward-rules';
import {
  composeStatement,
  poolDemandMicro,
  serverState,
  settleStatement,
  type StatementInput,
} from './reward-statement';

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
const november = periodBounds('2026-11'); // 30 days
const DAY = 86_400;

function input(overrides: Partial<StatementInput> = {}): StatementInput {
  return {
    tier: 'tier3',
    facts: {
      observedSeconds: november.seconds,
      reliabilitySeconds: 100n * BigInt(november.seconds),
      belowSeconds: 0,
    },
    period: november,
    state: 'active',
    enrolledAt: new Date('2026-01-10T00:00:00Z'),
    hardwareSince: new Date('2026-01-10T00:00:00Z'),
    stakeMicro: 0n,
    requiredBeforeMicro: 0n,
    subscriptionClients: 20,
    subscriptionMicro: ssl(200),
    adBonusMicro: ssl(4),
    ...overrides,
  };
}

describe('composeStatement', () => {
  it('should reproduce the worked example: 1,500 + 200 + 4 = 1,704 SSL, year 1 asks 20% of it', () => {
    const figures = composeStatement(input());
    expect(figures.earnedMicro).toBe(ssl(1500));
    expect(figures.incomeMicro).toBe(ssl(1704));
    expect(figures.nodeYear).toBe(1);
    expect(figures.requiredStakeMicro).toBe(340_800_000n);
    expect(figures.withheld).toBeNull();
    expect(figures.poolWalletMicro).toBe(ssl(1500));
    expect(figures.poolEscrowMicro).toBe(0n);
  });

  it('should pay a node enrolled mid-month pro rata, and freeze the part earned below 95%', () => {
    const figures = composeStatement(
      input({
        facts: {
          observedSeconds: 15 * DAY,
          // 10 days at 100%, 5 days at 90% (below the threshold).
          reliabilitySeconds: 100n * BigInt(10 * DAY) + 90n * BigInt(5 * DAY),
          belowSeconds: 5 * DAY,
        },
      }),
    );
    expect(figures.proRataMicro).toBe(ssl(750));
    // R = 96.67%: kept 2 x 1,450 - 1,500 = 1,400 SSL-days of 3,000: 1,500 x 1,400 / 3,000.
    expect(figures.earnedMicro).toBe(ssl(700));
    expect(figures.frozenMicro).toBe(700_000_000n / 3n);
    expect(figures.poolWalletMicro + figures.poolEscrowMicro).toBe(ssl(700));
    expect(figures.poolEscrowMicro).toBe(figures.frozenMicro);
  });

  it('should escrow the whole reward of a server hidden when paid, pay nothing for a banned one', () => {
    const hidden = composeStatement(input({ state: 'hidden' }));
    expect(hidden).toMatchObject({ withheld: 'hidden', poolWalletMicro: 0n });
    expect(hidden.poolEscrowMicro).toBe(ssl(1500));
    const banned = composeStatement(input({ state: 'banned' }));
    expect(banned).toMatchObject({ withheld: 'banned', poolWalletMicro: 0n, poolEscrowMicro: 0n });
    // The statement still says what it would have earned.
    expect(banned.earnedMicro).toBe(ssl(1500));
  });

  it("should pay a deleted server's payable part and leave its frozen part in the pool", () => {
    const facts = {
      observedSeconds: november.seconds,
      reliabilitySeconds: 96n * BigInt(november.seconds - DAY) + 94n * BigInt(DAY),
      belowSeconds: DAY,
    };
    const deleted = composeStatement(input({ state: 'deleted', facts }));
    expect(deleted.withheld).toBe('deleted');
    expect(deleted.poolWalletMicro).toBe(deleted.payableMicro);
    expect(deleted.poolEscrowMicro).toBe(0n);
    expect(composeStatement(input({ state: 'deleted' })).withheld).toBeNull();
  });

  it('should cut the base by half after year 4 unless the stake covers the requirement', () => {
    const old = { enrolledAt: new Date('2022-06-01T00:00:00Z') };
    const cut = composeStatement(
      input({ ...old, requiredBeforeMicro: ssl(100), stakeMicro: ssl(99) }),
    );
    expect(cut.halvingCut).toBe(true);
    expect(cut.earnedMicro).toBe(ssl(750));
    expect(cut.nodeYear).toBe(5);
    // year 5 and after asks 50%.
    expect(cut.requiredStakeMicro).toBe((ssl(750) + ssl(204)) / 2n);
    const covered = composeStatement(
      input({ ...old, requiredBeforeMicro: ssl(100), stakeMicro: ssl(100) }),
    );
    expect(covered.halvingCut).toBe(false);
    // Hardware 4 years old counts as well, whatever the node's age.
    const hardware = composeStatement(
      input({ hardwareSince: new Date('2022-11-30T00:00:00Z'), requiredBeforeMicro: 1n }),
    );
    expect(hardware.halvingCut).toBe(true);
    expect(
      composeStatement(input({ hardwareSince: new Date('2022-12-02T00:00:00Z') })).halvingCut,
    ).toBe(false);
  });
});

describe('settleStatement', () => {
  it('should pay in full without a scale and auto-stake the percent of the payable part', () => {
    const payout = settleStatement(
      { poolWalletMicro: ssl(1500), poolEscrowMicro: ssl(10) },
      UNSCALED,
      50,
    );
    expect(payout).toEqual({
      paidPayableMicro: ssl(1500),
      escrowedMicro: ssl(10),
      autoStakePercent: 50,
      autoStakedMicro: ssl(750),
      walletMicro: ssl(750),
    });
  });

  it('should scale both parts by the budget and never pay more than it', () => {
    const statements = [
      { poolWalletMicro: ssl(1500), poolEscrowMicro: 333n },
      { poolWalletMicro: 7n, poolEscrowMicro: ssl(20) },
    ];
    const demand = poolDemandMicro(statements, [ssl(8)]);
    expect(demand).toBe(ssl(1528) + 340n);
    const budget = ssl(1000);
    const scale = budgetScale(demand, budget);
    const paid = statements
      .map((s) => settleStatement(s, scale, 33))
      .reduce((sum, p) => sum + p.walletMicro + p.autoStakedMicro + p.escrowedMicro, 0n);
    expect(paid).toBeLessThanOrEqual(budget);
    expect(paid).toBeGreaterThan(budget - ssl(10));
  });

  it('should refuse an auto-stake percent outside 0 to 100', () => {
    expect(() =>
      settleStatement({ poolWalletMicro: 1n, poolEscrowMicro: 0n }, UNSCALED, 101),
    ).toThrow(RangeError);
  });
});

describe('serverState', () => {
  it('should read banned before hidden, and a missing row as deleted', () => {
    const at = new Date();
    expect(serverState(null)).toBe('deleted');
    expect(serverState({ bannedAt: at, belowThresholdSince: at })).toBe('banned');
    expect(serverState({ bannedAt: null, belowThresholdSince: at })).toBe('hidden');
    expect(serverState({ bannedAt: null, belowThresholdSince: null })).toBe('active');
  });
});
