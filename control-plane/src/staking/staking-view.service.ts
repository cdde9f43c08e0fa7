import { Inject, Injectable } from '@nestjs/common';
import { ECONOMICS, type StakingData, type StakingServer, VPS_TIERS } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import {
  allowedClients,
  nodeYear,
  requiredStakeSharePercent,
  stakingIncomeMicro,
} from '../rewards/reward-rules';
import { type StakingServerRow, StakingRepository } from './staking.repository';
import { halvingFrom, stakeLockView } from './staking-rules';

/**
 * What the node dashboard's staking settings show (GET /api/nodes/{uuid}/staking): the stake,
 * what of it is unlocked and when the rest unlocks, what can be staked, the automatic stake, the
 * income it earns, and halving protection per server (spec 02 §4, §9).
 */
@Injectable()
export class StakingViewService {
  constructor(
    private readonly repository: StakingRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async view(ownerUuid: string): Promise<StakingData> {
    const now = this.clock.now();
    const [balances, stakeLocks, frozen, autoStakePercent, servers, requirements] =
      await Promise.all([
        this.repository.balances(ownerUuid),
        this.repository.frozenLots('stake', ownerUuid, now),
        this.repository.frozenLots('node_wallet', ownerUuid, now),
        this.repository.autoStakePercent(ownerUuid),
        this.repository.servers(ownerUuid),
        this.repository.requirements(ownerUuid),
      ]);
    const locks = stakeLockView(balances.stakeMicro, stakeLocks);
    const frozenMicro = frozen.reduce((sum, lot) => sum + lot.amountMicro, 0n);
    const wallet = balances.nodeWalletMicro;
    const stakeable = wallet - (frozenMicro > wallet ? wallet : frozenMicro);
    const rows = servers.map((server) =>
      this.server(server, requirements.byServer.get(server.id) ?? 0n, now),
    );
    // The rewards engine's own figure (a deleted server's statements count too).
    const required = requirements.totalMicro;
    return {
      stakeMicro: balances.stakeMicro.toString(),
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
      monthlyIncomeMicro: stakingIncomeMicro(balances.stakeMicro, balances.stakeMicro).toString(),
      requiredStakeMicro: required.toString(),
      requirementMet: balances.stakeMicro >= required,
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
