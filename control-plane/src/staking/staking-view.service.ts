import { Inject, Injectable } from '@nestjs/common';
import { ECONOMICS, type StakingData, type StakingServer, VPS_TIERS } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import {
  allowedClients,
  nodeYear,
  requiredStakeSharePercent,
  stakingIncomeMicro,
} from '../rewards/reward-rules';
import { WalletBalancesService } from '../wallet/wallet-balances.service';
import { type StakingServerRow, StakingRepository } from './staking.repository';
import { halvingFrom, stakeLock, stakeLockView } from './staking-rules';

/**
 * What the node dashboard's staking settings show (GET /api/nodes/{uuid}/staking): the stake,
 * what of it is unlocked and when the rest unlocks, what can be staked, the automatic stake, the
 * income it earns, and halving protection per server (docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy).
 */
@Injectable()
export class StakingViewService {
  constructor(
    private readonly repository: StakingRepository,
    private readonly wallets: WalletBalancesService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async view(ownerUuid: string): Promise<StakingData> {
    const now = this.clock.now();
    const [stakes, stakeLots, nodeWallet, autoStakePercent, servers, requirements] =
      await Promise.all([
        this.wallets.balances(ownerUuid, ['stake']),
        this.wallets.frozenLots('stake', ownerUuid, now),
        this.wallets.available('node_wallet', ownerUuid, now),
        this.repository.autoStakePercent(ownerUuid),
        this.repository.servers(ownerUuid),
        this.repository.requirements(ownerUuid),
      ]);
    const stakeMicro = stakes.get('stake')!;
    const locks = stakeLockView(stakeMicro, stakeLots.map(stakeLock));
    // Only the node wallet's available balance can be staked (its frozen rewards cannot).
    const stakeable = nodeWallet.availableMicro;
    const rows = servers.map((server) =>
      this.server(server, requirements.byServer.get(server.id) ?? 0n, now),
    );
    // The rewards engine's own figure (a deleted server's statements count too).
    const required = requirements.totalMicro;
    return {
      stakeMicro: stakeMicro.toString(),
      unlockedMicro: locks.unlockedMicro.toString(),
      lockedMicro: locks.lockedMicro.toString(),
      locks: locks.locks.map((lock) => ({
        amountMicro: lock.amountMicro.toString(),
        unlocksAt: lock.unlocksAt.toISOString(),
      })),
      lockDays: ECONOMICS.stakeLockDays,
      stakeableMicro: stakeable.toString(),
      autoStakePercent,
      apyPercent: ECONOMICS.stakingApyPercent,
      // A month from now on today's stake (a stake made later in a month earns from the next).
      monthlyIncomeMicro: stakingIncomeMicro(stakeMicro, stakeMicro).toString(),
      requiredStakeMicro: required.toString(),
      requirementMet: stakeMicro >= required,
      servers: rows,
      lastUpdated: now.toISOString(),
    };
  }

  private server(row: StakingServerRow, requiredMicro: bigint, now: Date): StakingServer {
    const year = nodeYear(row.createdAt, now);
    const maxClients = VPS_TIERS.find((tier) => tier.id === row.tier)?.maxClients ?? null;
    return {
      id: row.id,
      name: row.name,
      tier: row.tier,
      nodeYear: year,
      requiredSharePercent: requiredStakeSharePercent(year),
      requiredStakeMicro: requiredMicro.toString(),
      enrolledAt: row.createdAt.toISOString(),
      hardwareSince: row.hardwareSince?.toISOString() ?? null,
      halvingFrom: halvingFrom(row.createdAt, row.hardwareSince).toISOString(),
      halvingCut: row.halvingCut,
      maxClients,
      allowedClients: maxClients === null ? null : allowedClients(maxClients, row.halvingCut),
    };
  }
}
