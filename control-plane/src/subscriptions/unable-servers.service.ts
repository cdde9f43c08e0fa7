import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { JOBS } from '../jobs/job-registry';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { ServerDropService } from './server-drop.service';
import { ServerDropsRepository } from './server-drops.repository';
import { HIDDEN_GRACE_MS, unableToServe, watchingSince } from './server-drop-rules';
import {
  type SubscribableServer,
  type SubscriptionRecord,
  SubscriptionsRepository,
} from './subscriptions.repository';

const PAGE = 200;
/** The server drop job's key in job_heartbeats (its registry name). */
export const SERVER_DROP_HEARTBEAT = JOBS.serverDrop.name;

/**
 * Keeps clients from paying for servers that cannot serve them (the rule is
 * `unableToServe`: banned, or hidden for an hour the control plane watched). Renewals,
 * activations and billing changes call `dropUnable` before they price a period; once a minute
 * the server drop job (server-drop.job.ts) calls `dropDue`, which drops the same servers from
 * every subscription that is not deleted, refunding the unused time. Each subscription is
 * settled in its own transaction, under its row lock. Each run of `dropDue` records a heartbeat:
 * after a gap (an outage of ours) the hour of grace starts again, so servers that looked silent
 * only because we were down are not dropped.
 */
@Injectable()
export class UnableServersService {
  constructor(
    private readonly drops: ServerDropService,
    private readonly repository: ServerDropsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly clientSets: ClientSetsService,
    private readonly realtime: RealtimeGateway,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Drops the servers of a locked subscription that cannot serve: each is refunded
   * (ServerDropService) and its uuid leaves that server's client set, in the caller's
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
      watching ??
      watchingSince(await this.repository.heartbeat(SERVER_DROP_HEARTBEAT, manager), now);
    const kept: SubscribableServer[] = [];
    let dropped = 0;
    for (const server of servers) {
      const unable = unableToServe(server, now, since);
      if (!unable) {
        kept.push(server);
        continue;
      }
      const done = await this.drops.drop(manager, record, server, unable, now);
      if (done) dropped += 1;
      await this.clientSets.removeClients(manager, [server.id], record.vlessUuid);
    }
    return { kept, dropped };
  }

  /**
   * Drops every server that cannot serve from every subscription that is not deleted, and
   * records the heartbeat; answers how many were dropped. The caller holds the job's lock (one
   * run at a time); each subscription is settled in a transaction of its own.
   */
  async dropDue(): Promise<number> {
    const now = this.clock.now();
    const heartbeat = await this.repository.heartbeat(SERVER_DROP_HEARTBEAT);
    const watching = watchingSince(heartbeat, now);
    await this.repository.beat(SERVER_DROP_HEARTBEAT, now, watching);
    // Hidden servers qualify only once the job has watched for the grace (banned ones at once).
    const graceStart = now.getTime() - HIDDEN_GRACE_MS;
    const hiddenBefore = new Date(watching.getTime() <= graceStart ? graceStart : 0);
    let dropped = 0;
    for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
      const due = await this.repository.candidates(hiddenBefore, after, PAGE);
      for (const id of due) dropped += await this.dropFrom(id, now, watching);
      if (due.length < PAGE) break;
      after = due[due.length - 1]!;
    }
    // docs/product/calls.md#dashboard-calls: the client dashboard reloads its subscriptions and wallet on this event.
    if (dropped > 0) this.realtime.serverListUpdated('withdrawn');
    return dropped;
  }

  private dropFrom(id: string, now: Date, watching: Date): Promise<number> {
    return this.transactions.runRetrying(async (manager) => {
      const record = await this.subscriptions.lockForJob(manager, id);
      if (!record || !['active', 'paused', 'expired'].includes(record.status)) return 0;
      const servers = await this.subscriptions.serversFor(manager, id, null);
      const { dropped } = await this.dropUnable(manager, record, servers, now, watching);
      return dropped;
    });
  }
}
