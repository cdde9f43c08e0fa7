import { MICRO_PER_SSL } from '@scn/proto';
import type { StakeRequirements, StakingRepository, StakingServerRow } from './staking.repository';
import { StakingViewService } from './staking-view.service';
import { WalletBalancesService } from '../wallet/wallet-balances.service';
import type { WalletRepository } from '../wallet/wallet.repository';

const now = new Date('2026-03-01T12:00:00.000Z');
const ssl = (n: number) => BigInt(n) * MICRO_PER_SSL;
const OLD = '22222222-2222-4222-8222-222222222222';
const NEW = '33333333-3333-4333-8333-333333333333';

function setup(requirements: StakeRequirements, stake = ssl(852)) {
  const servers: StakingServerRow[] = [
    {
      id: OLD,
      name: 'Old',
      tier: 'tier3',
      createdAt: new Date('2021-06-01T00:00:00.000Z'),
      hardwareSince: new Date('2021-06-02T00:00:00.000Z'),
      halvingCut: true,
    },
    {
      id: NEW,
      name: 'New',
      tier: null,
      createdAt: new Date('2025-12-15T00:00:00.000Z'),
      hardwareSince: null,
      halvingCut: false,
    },
  ];
  // WalletBalancesService over a node wallet of 50 SSL with 20 frozen and one stake lock.
  const wallets = new WalletBalancesService({
    balancesOf: jest.fn(
      async () =>
        new Map([
          ['node_wallet', ssl(50)],
          ['stake', stake],
        ]),
    ),
    frozenLots: jest.fn(async ({ kind }: { kind: string }) =>
      kind === 'stake'
        ? [{ amountMicro: ssl(100), frozenUntil: new Date('2026-03-20T00:00:00.000Z') }]
        : [{ amountMicro: ssl(20), frozenUntil: new Date('2026-04-20T00:00:00.000Z') }],
    ),
  } as unknown as WalletRepository);
  const repository = {
    autoStakePercent: jest.fn(async () => 50),
    servers: jest.fn(async () => servers),
    requirements: jest.fn(async () => requirements),
  };
  return new StakingViewService(repository as unknown as StakingRepository, wallets, {
    now: () => now,
  });
}

describe('StakingViewService.view', () => {
  it('should show the stake, its locks, what can be staked, the income and the halving per server', async () => {
    // The rewards engine's stored requirements: docs/product/constants.md#billing-and-the-economy's example month in year 5 (50% of
    // 1,704 SSL) for the old server, 20% of 100 SSL for the new one, and 5 SSL of a server
    // deleted since, which the engine still counts in the operator's total.
    const view = await setup({
      byServer: new Map([
        [OLD, ssl(852)],
        [NEW, ssl(20)],
      ]),
      totalMicro: ssl(852) + ssl(20) + ssl(5),
    }).view('owner');
    expect(view).toMatchObject({
      stakeMicro: ssl(852).toString(),
      unlockedMicro: ssl(752).toString(),
      lockedMicro: ssl(100).toString(),
      locks: [{ amountMicro: ssl(100).toString(), unlocksAt: '2026-03-20T00:00:00.000Z' }],
      lockDays: 30,
      stakeableMicro: ssl(30).toString(),
      autoStakePercent: 50,
      apyPercent: 12,
      // docs/product/constants.md#billing-and-the-economy: 852 x 12% / 12 = 8.52 SSL ("about 8.5 SSL a month").
      monthlyIncomeMicro: '8520000',
      requiredStakeMicro: (ssl(852) + ssl(20) + ssl(5)).toString(),
      requirementMet: false,
      lastUpdated: now.toISOString(),
    });
    expect(view.servers).toEqual([
      {
        id: OLD,
        name: 'Old',
        tier: 'tier3',
        nodeYear: 5,
        requiredSharePercent: 50,
        requiredStakeMicro: ssl(852).toString(),
        enrolledAt: '2021-06-01T00:00:00.000Z',
        hardwareSince: '2021-06-02T00:00:00.000Z',
        halvingFrom: '2025-06-01T00:00:00.000Z',
        halvingCut: true,
        maxClients: 60,
        allowedClients: 30,
      },
      {
        id: NEW,
        name: 'New',
        tier: null,
        nodeYear: 1,
        requiredSharePercent: 20,
        requiredStakeMicro: ssl(20).toString(),
        enrolledAt: '2025-12-15T00:00:00.000Z',
        hardwareSince: null,
        halvingFrom: '2029-12-15T00:00:00.000Z',
        halvingCut: false,
        maxClients: null,
        allowedClients: null,
      },
    ]);
  });

  it('should call the requirement met when the stake covers the engine’s total', async () => {
    const none = await setup({ byServer: new Map(), totalMicro: 0n }, ssl(1)).view('owner');
    expect(none).toMatchObject({ requiredStakeMicro: '0', requirementMet: true });
    expect(none.servers.map((server) => server.requiredStakeMicro)).toEqual(['0', '0']);
    const exact = { byServer: new Map([[OLD, ssl(852)]]), totalMicro: ssl(852) };
    expect((await setup(exact, ssl(852)).view('owner')).requirementMet).toBe(true);
    expect((await setup(exact, ssl(852) - 1n).view('owner')).requirementMet).toBe(false);
  });
});
