import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { NodesService } from '../nodes/nodes.service';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { ServerReplacements } from '../subscriptions/server-replacement.service';
import { ReachabilityRepository, type StateChange } from './reachability.repository';
import { REACHABILITY_RULES } from './reachability-rules';
import { ReachabilityService } from './reachability.service';

/**
 * Reachability's upkeep: the automatic port regeneration of servers that became blocked
 * somewhere (at once, when an estimate turns blocked, and every upkeep for any missed), and the
 * pruning of old observations and stale estimates (whose servers' market penalty is recomputed).
 * The reachability job (reachability.job.ts) runs `upkeep` under its advisory lock.
 */
@Injectable()
export class ReachabilityUpkeepService implements OnApplicationBootstrap {
  private readonly logger = new Logger('ReachabilityUpkeep');

  constructor(
    private readonly reachability: ReachabilityService,
    private readonly repository: ReachabilityRepository,
    private readonly nodes: NodesService,
    private readonly replacements: ServerReplacements,
    private readonly realtime: RealtimeGateway,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.reachability.listen((changes) => this.onChanges(changes));
  }

  /** Prunes, then regenerates the ports of servers still blocked; the servers it regenerated. */
  async upkeep(): Promise<number> {
    const now = this.clock.now().getTime();
    const pruned = await this.repository.prune(
      new Date(now - REACHABILITY_RULES.keepMs),
      new Date(now - REACHABILITY_RULES.freshMs),
    );
    await this.reachability.refreshPenalties(pruned);
    const blocked = await this.repository.blockedWithAutoRegeneration(
      new Date(now - REACHABILITY_RULES.freshMs),
    );
    for (const serverId of blocked) await this.regenerate(serverId);
    return blocked.length;
  }

  /** A server just became blocked somewhere: its port if the owner allows, then replacements. */
  private async onChanges(changes: readonly StateChange[]): Promise<void> {
    const blocked = [...new Set(changes.filter((c) => c.after === 'b').map((c) => c.serverId))];
    if (blocked.length === 0) return;
    for (const serverId of blocked) await this.regenerate(serverId);
    await this.replacements.replaceDue(blocked);
  }

  private async regenerate(serverId: string): Promise<void> {
    const server = await this.nodes.regeneratePortWhenBlocked(serverId);
    if (!server) return;
    this.logger.log({ serverId, port: server.planPort }, 'Port regenerated: blocked somewhere');
    this.realtime.serverListUpdated('address');
  }
}
