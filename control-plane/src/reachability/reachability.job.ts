import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { NodesService } from '../nodes/nodes.service';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { ServerReplacements } from '../subscriptions/server-replacement.service';
import { ReachabilityRepository, type StateChange } from './reachability.repository';
import { REACHABILITY_RULES } from './reachability-rules';
import { ReachabilityService } from './reachability.service';

/**
 * Reachability's upkeep: the automatic port regeneration of servers that became blocked
 * somewhere (at once, when an estimate turns blocked, and every run for any missed), and the
 * pruning of old observations and stale estimates (whose servers' market penalty is recomputed).
 */
@Injectable()
export class ReachabilityJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReachabilityJob');
  private job: ScheduledJob | null = null;

  constructor(
    private readonly reachability: ReachabilityService,
    private readonly repository: ReachabilityRepository,
    private readonly nodes: NodesService,
    private readonly replacements: ServerReplacements,
    private readonly realtime: RealtimeGateway,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.reachability.listen((changes) => this.onChanges(changes));
    this.job = this.scheduler.start(JOBS.reachabilityUpkeep, () => this.runOnce(), {
      intervalMs: this.config.reachability.jobIntervalMs,
    });
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** One upkeep unless another replica's is going (then null); the servers it regenerated. */
  runOnce(): Promise<number | null> {
    return this.transactions.whileHolding(JOBS.reachabilityUpkeep.lockId, async () => {
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
    });
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
