import { REWARDS_MESSAGES } from '@scn/proto';
import { EarningsService } from './earnings.service';
import type { Draft, RewardComputer } from './reward-computer';
import { periodBounds } from './reward-period';
import type { RewardStatementsRepository } from './reward-statements.repository';
import { RewardsException } from './rewards.exception';

const OWNER = '11111111-1111-4111-8111-111111111111';
const NEW_SERVER = '22222222-2222-4222-8222-222222222222';

/** A computer whose network-wide drafts ask 1, 2, 3... SSL of the pool, in call order. */
function setup() {
  let now = new Date('2026-11-10T12:00:00Z');
  let networkDrafts = 0;
  let release: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  const draft = jest.fn(async (period: string, until: Date, owner: string | null = null) => {
    const demand = owner ? 0n : BigInt((networkDrafts += 1));
    if (!owner && gate) await gate;
    return {
      bounds: periodBounds(period),
      until,
      statements: [],
      staking: [],
      demandMicro: demand,
    } satisfies Draft;
  });
  const computer = {
    draft,
    pool: async () => ({ poolMicro: 1_200n, monthIndex: 0, budgetMicro: 100n }),
  } as unknown as RewardComputer;
  const repository = {
    run: async () => null,
    serverNames: async () => new Map(),
    // Enrolled a moment ago: the history sweep has written none of its facts yet.
    ownedServers: async () => [
      {
        id: NEW_SERVER,
        name: 'Lisbon 1',
        tier: 'tier2',
        bannedAt: null,
        belowThresholdSince: null,
      },
    ],
  } as unknown as RewardStatementsRepository;
  const service = new EarningsService(computer, repository, { now: () => now });
  return {
    service,
    draft,
    demand: async () => (await service.earnings(OWNER, undefined)).pool.demandMicro,
    move: (ms: number) => (now = new Date(now.getTime() + ms)),
    hold: () => {
      gate = new Promise((resolve) => (release = resolve));
    },
    open: () => {
      gate = null;
      release?.();
    },
  };
}

describe('EarningsService', () => {
  it('should answer the current month as a dry run and refuse a month after it', async () => {
    const { service } = setup();
    const earnings = await service.earnings(OWNER, '2026-11');
    expect(earnings).toMatchObject({ kind: 'dry_run', note: REWARDS_MESSAGES.dryRun });
    await expect(service.earnings(OWNER, '2026-12')).rejects.toBeInstanceOf(RewardsException);
    expect((await service.earnings(OWNER, '2026-10')).note).toBe(REWARDS_MESSAGES.pending);
    expect((await service.earnings(OWNER, '2025-01')).note).toBe(REWARDS_MESSAGES.notRun);
  });

  it('should list a server without facts in the current month only, with zero figures', async () => {
    const { service } = setup();
    const current = await service.earnings(OWNER, '2026-11');
    expect(current.servers).toEqual([
      {
        serverId: NEW_SERVER,
        serverName: 'Lisbon 1',
        tier: 'tier2',
        serverState: 'active',
        status: 'dry_run',
        withheld: null,
        lines: [],
        incomeMicro: '0',
        walletMicro: '0',
        autoStakedMicro: '0',
        escrowedMicro: '0',
        paidAt: null,
        ledgerTransactionId: null,
        firstFactsPending: true,
      },
    ]);
    expect(current.totals.incomeMicro).toBe('0');
    expect((await service.earnings(OWNER, '2026-10')).servers).toEqual([]);
  });

  it("should compute the network's demand once per 10 minutes, answering the last figure while it refreshes", async () => {
    const t = setup();
    expect(await t.demand()).toBe('1');
    t.move(9 * 60_000);
    expect(await t.demand()).toBe('1');
    t.move(2 * 60_000);
    t.hold();
    // Stale: answered at once with the last figure; one refresh runs behind it.
    expect(await t.demand()).toBe('1');
    expect(await t.demand()).toBe('1');
    t.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await t.demand()).toBe('2');
    const networkCalls = t.draft.mock.calls.filter((call) => call.length < 3 || !call[2]);
    expect(networkCalls).toHaveLength(2);
  });
});
