import { Inject, Injectable } from '@nestjs/common';
import { ECONOMICS, type StakingData, type StakingServer, VPS_TIERS } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import {
  allowedClients,
  nodeYear,
  requiredStakeSharePercent,
  stakingIncomeMicro,
} from '../rewards/reward-rules';
import { type StakingServerRow, StakingRepository, type StatementRow } from './staking.repository';
import {
  halvingFrom,
  type PaidStatement,
  requiredStakeSoFar,
  stakeLockView,
  statementPeriodEnd,
} from './staking-rules';

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
    const [balances, stakeLocks, frozen, autoStakePercent, servers, statements] = await Promise.all(
      [
        this.repository.balances(ownerUuid),
        this.repository.frozenLots('stake', ownerUuid, now),
        this.repository.frozenLots('node_wallet', ownerUuid, now),
        this.repository.autoStakePercent(ownerUuid),
        this.repository.servers(ownerUuid),
        this.repository.statements(ownerUuid, now),
      ],
    );
    const locks = stakeLockView(balances.stakeMicro, stakeLocks);
    const frozenMicro = frozen.reduce((sum, lot) => sum + lot.amountMicro, 0n);
    const wallet = balances.nodeWalletMicro;
    const stakeable = wallet - (frozenMicro > wallet ? wallet : frozenMicro);
    const byServer = groupStatements(statements);
    const rows = servers.map((server) => this.server(server, byServer.get(server.id) ?? [], now));
    const required = rows.reduce((sum, row) => sum + BigInt(row.requiredStakeMicro), 0n);
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

  private server(row: StakingServerRow, statements: PaidStatement[], now: Date): StakingServer {
    const year = nodeYear(row.createdAt, now);
    const maxClients = VPS_TIERS.find((tier) => tier.id === row.tier)?.maxClients ?? null;
    return {
      id: row.id,
      name: row.name,
      tier: row.tier,
      nodeYear: year,
      requiredSharePercent: requiredStakeSharePercent(year),
      requiredStakeMicro: requiredStakeSoFar(row.createdAt, statements).toString(),
      enrolledAt: row.createdAt.toISOString(),
      hardwareSince: row.hardwareSince?.toISOString() ?? null,
      halvingFrom: halvingFrom(row.createdAt, row.hardwareSince).toISOString(),
      halvingCut: row.halvingCut,
      maxClients,
      allowedClients: maxClients === null ? null : allowedClients(maxClients, row.halvingCut),
    };
  }
}

/** Statements by server, with each one's period. */
function groupStatements(rows: readonly StatementRow[]): Map<string, PaidStatement[]> {
  const byServer = new Map<string, PaidStatement[]>();
  for (const row of rows) {
    const periodEnd = statementPeriodEnd(row.externalRef);
    if (!periodEnd) continue;
    const list = byServer.get(row.serverId) ?? [];
    list.push({ periodEnd, earningsMicro: row.paidMicro });
    byServer.set(row.serverId, list);
  }
  return byServer;
}
