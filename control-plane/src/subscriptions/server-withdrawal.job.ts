import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { CLOCK, type Clock } from '../common/clock';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { ServerWithdrawals } from './server-withdrawal';
import { ServerWithdrawalsRepository } from './server-withdrawals.repository';
import {
  type SubscribableServer,
  type SubscriptionRecord,
  SubscriptionsRepository,
} from './subscriptions.repository';
import { HIDDEN_GRACE_MS, unableToServe, watchingSince } from './withdrawal-rules';

const PAGE = 200;
/** Its name in job_heartbeats. */
export const WITHDRAWAL_JOB = 'server-withdrawal';

/**
 * Keeps clients from paying for servers that cannot serve them (issue 15 §7; the rule is
 * `unableToServe`: banned, or hidden for an hour the control plane watched). Renewals,
 * activations and billing changes call `dropUnable` before they price a period; once a minute
 * (one run across the replicas and an advisory lock, like the billing job) the job drops the same servers from every subscription
 * that is not deleted, refunding the unused time. Each subscription is settled in its own
 * transaction, under its row lock. Each run records a heartbeat: after a gap (an outage of ours)
 * the hour of grace starts again, so servers that looked silent only because we were down are
 * not dropped.
 */
@Injectable()
export class ServerWithdrawalJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly withdrawals: ServerWithdrawals,
    private readonly repository: ServerWithdrawalsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly clientSets: ClientSetsService,
    private readonly realtime: RealtimeGateway,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.serverWithdrawal, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** Drops what is due unless another replica is doing it now (then null); answers how many. */
  runOnce(): Promise<number | null> {
    // The lock's transaction only holds the lock: each subscription is settled in its own.
    return this.transactions.exclusive(JOBS.serverWithdrawal.lockId, () => this.settle());
  }

  /**
   * Drops the servers of a locked subscription that cannot serve: each is refunded
   * (ServerWithdrawals) and its uuid leaves that server's client set, in the caller's
   * transaction. Answers the servers that stay, in the client's order.
   */
  async dropUnable(
    manager: Transaction,
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    now: Date,
    watching?: Date,
  ): Promise<{ kept: SubscribableServer[]; dropped: number }> {
    const since =
      watching ?? watchingSince(await this.repository.heartbeat(WITHDRAWAL_JOB, manager), now);
    const kept: SubscribableServer[] = [];
    let dropped = 0;
    for (const server of servers) {
      const unable = unableToServe(server, now, since);
      if (!unable) {
        kept.push(server);
        continue;
      }
      const done = await this.withdrawals.withdraw(manager, record, server, unable, now);
      if (done) dropped += 1;
      await this.clientSets.removeClients(manager, [server.id], record.vlessUuid);
    }
    return { kept, dropped };
  }

  private async settle(): Promise<number> {
    const now = this.clock.now();
    const watching = watchingSince(await this.repository.heartbeat(WITHDRAWAL_JOB), now);
    await this.repository.beat(WITHDRAWAL_JOB, now, watching);
    // Hidden servers qualify only once the job has watched for the grace (banned ones at once).
    const graceStart = now.getTime() - HIDDEN_GRACE_MS;
    const hiddenBefore = new Date(watching.getTime() <= graceStart ? graceStart : 0);
    let dropped = 0;
    for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
      const due = await this.repository.candidates(hiddenBefore, after, PAGE);
      for (const id of due) dropped += await this.settleOne(id, now, watching);
      if (due.length < PAGE) break;
      after = due[due.length - 1]!;
    }
    // spec 02 §7: the client dashboard reloads its subscriptions and wallet on this event.
    if (dropped > 0) this.realtime.serverListUpdated('withdrawn');
    return dropped;
  }

  private settleOne(id: string, now: Date, watching: Date): Promise<number> {
    return this.transactions.runRetrying(async (manager) => {
      const record = await this.subscriptions.lockForJob(manager, id);
      if (!record || !['active', 'paused', 'expired'].includes(record.status)) return 0;
      const servers = await this.subscriptions.serversFor(manager, id, null);
      const { dropped } = await this.dropUnable(manager, record, servers, now, watching);
      return dropped;
    });
  }
}
