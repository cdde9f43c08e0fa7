import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ClientSetRefusal } from '../client-sets/client-sets.repository';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { CLOCK, type Clock } from '../common/clock';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { PremiumServers } from '../market/premium-servers';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { LedgerService } from '../wallet/ledger.service';
import {
  CLIENT_NETWORK_FRESH_MS,
  type ClientPlace,
  movePostings,
  type ReplacementCandidate,
  replacementNetwork,
  replacementsFor,
} from './replacement-rules';
import { ServerReplacementsRepository } from './server-replacements.repository';
import { ServerDropService, takeBackPostings } from './server-drop.service';
import { SubscriptionPaymentsService } from './subscription-payments.service';
import { OPERATOR_REWARD_FROZEN_MS } from './subscription-pricing';
import {
  SUBSCRIPTION_REACHABILITY,
  type SubscriptionReachabilityReader,
} from './subscription-reachability';
import {
  type SubscribableServer,
  type SubscriptionRecord,
  SubscriptionsRepository,
} from './subscriptions.repository';
import { SubscriptionsNotifier } from './subscriptions.notifier';

const PAGE = 200;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Replaces the servers of a subscription that are blocked in its client's network by comparable
 * ones that work there, for the rest of the paid period, at no charge to the client
 * (docs/reachability.md#replacements; the choice is replacement-rules.ts). Each subscription in
 * its own transaction under its row lock (SKIP LOCKED: whoever holds it is on it), where the
 * `subscription_replacements` row is written first (once per subscription, blocked server and
 * period), the server swapped in `subscription_servers` and in the client sets
 * (`client_sets_take`, the one capacity path; a full candidate is rolled back and the next one
 * tried), and the unused part of the period moved to the replacement's operator.
 */
@Injectable()
export class ServerReplacements {
  constructor(
    private readonly repository: ServerReplacementsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly drops: ServerDropService,
    private readonly payments: SubscriptionPaymentsService,
    private readonly clientSets: ClientSetsService,
    private readonly ledger: LedgerService,
    private readonly premium: PremiumServers,
    private readonly transactions: TransactionRunner,
    private readonly notifier: SubscriptionsNotifier,
    private readonly realtime: RealtimeGateway,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional()
    @Inject(SUBSCRIPTION_REACHABILITY)
    private readonly reachability: SubscriptionReachabilityReader | null = null,
  ) {
    if (!reachability) {
      new Logger('ServerReplacements').warn('No reachability reader: no server is replaced');
    }
  }

  /**
   * Replaces what is due in every subscription, or only in the subscriptions of `serverIds`
   * (call it right after their reachability changed). Answers how many servers were replaced.
   */
  async replaceDue(serverIds: readonly string[] | null = null): Promise<number> {
    if (!this.reachability || (serverIds !== null && serverIds.length === 0)) return 0;
    const now = this.clock.now();
    const seenSince = new Date(now.getTime() - CLIENT_NETWORK_FRESH_MS);
    let replaced = 0;
    for (let after = FIRST_ID; ;) {
      const due = await this.repository.due(now, seenSince, after, PAGE, serverIds);
      for (const id of due) replaced += await this.replaceIn(id);
      if (due.length < PAGE) break;
      after = due[due.length - 1]!;
    }
    return replaced;
  }

  /** Replaces the blocked servers of one subscription; how many. */
  async replaceIn(subscriptionId: string): Promise<number> {
    const outcome = await this.transactions.runRetrying((tx) => this.settle(tx, subscriptionId));
    if (outcome.replaced > 0) {
      this.realtime.subscriptionUpdated(outcome.ownerUuid, 'server_replaced');
      this.notifier.changed();
    }
    return outcome.replaced;
  }

  private async settle(
    tx: Transaction,
    subscriptionId: string,
  ): Promise<{ replaced: number; ownerUuid: string }> {
    const now = this.clock.now();
    const locked = await this.repository.lock(tx, subscriptionId);
    if (!locked || !this.reachability) return { replaced: 0, ownerUuid: '' };
    const { record, client } = locked;
    const network = replacementNetwork(record, client, now);
    if (!network) return { replaced: 0, ownerUuid: record.ownerUuid };
    const email = this.premium.operatorEmail;
    const servers = await this.subscriptions.serversFor(tx, record.id, email);
    const states = await this.reachability.statesFrom(
      servers.map((server) => server.id),
      network,
    );
    const blocked = servers.filter((server) => states.get(server.id) === 'blocked');
    if (blocked.length === 0) return { replaced: 0, ownerUuid: record.ownerUuid };
    const working = await this.reachability.workingFrom(network);
    const candidates: ReplacementCandidate[] = (
      await this.repository.candidates(tx, working, network, email)
    ).map((row) => ({
      ...row,
      priceMicro: this.payments.priceMicro(record.billingCycle, [row.server], now),
    }));
    const subscribed = new Set(servers.map((server) => server.id));
    let replaced = 0;
    for (const server of blocked) {
      const priceMicro = this.payments.priceMicro(record.billingCycle, [server], now);
      const choices = replacementsFor({ server, priceMicro }, candidates, subscribed, now);
      for (const choice of choices) {
        const outcome = await this.trySwap(tx, record, server, choice.server, network, now);
        if (outcome === 'full') continue;
        if (outcome === 'done') {
          subscribed.add(choice.server.id);
          replaced += 1;
        }
        break;
      }
    }
    return { replaced, ownerUuid: record.ownerUuid };
  }

  /**
   * One candidate, in a savepoint: the row (a replay stops here), the swap, the place on the
   * replacement (full: everything rolled back, 'full'), then the money.
   */
  private async trySwap(
    tx: Transaction,
    record: SubscriptionRecord,
    blocked: SubscribableServer,
    replacement: SubscribableServer,
    network: ClientPlace,
    now: Date,
  ): Promise<'done' | 'replayed' | 'full'> {
    const since = (await this.repository.blockedSince(tx, blocked.id, network)) ?? now;
    const share = await this.drops.unusedShare(
      tx,
      record,
      blocked.ownerUuid,
      since.getTime() > now.getTime() ? now : since,
    );
    const id = randomUUID();
    try {
      const swapped = await this.repository.attempt(tx, async () => {
        const recorded = await this.repository.insert(tx, {
          id,
          subscriptionId: record.id,
          blocked,
          replacement,
          country: network.country,
          asn: network.asn,
          periodIndex: record.periodIndex,
          replacedAt: now,
          movedMicro: share.amountMicro,
        });
        if (!recorded) return false;
        if (!(await this.repository.swapServer(tx, record.id, blocked.id, replacement.id))) {
          throw new Error(`server ${blocked.id} left subscription ${record.id} under its lock`);
        }
        await this.clientSets.removeClients(tx, [blocked.id], record.vlessUuid);
        await this.clientSets.take(tx, [{ id: replacement.id }], record.vlessUuid);
        return true;
      });
      if (!swapped) return 'replayed';
    } catch (error) {
      if (error instanceof ClientSetRefusal) return 'full';
      throw error;
    }
    const postings = movePostings(
      takeBackPostings(share, blocked.ownerUuid),
      replacement,
      share.amountMicro,
      new Date(now.getTime() + OPERATOR_REWARD_FROZEN_MS),
    );
    if (postings.length >= 2) {
      await this.ledger.lockAndPost(tx, {
        type: 'server_replacement',
        postings,
        initiatorUuid: null,
        subscriptionId: record.id,
        serverCount: 1,
        description: `Server replacement: ${replacement.name} took over from ${blocked.name}`,
        describedAs: {
          code: 'server_replacement',
          values: { blocked: blocked.name, replacement: replacement.name },
        },
        externalRef: `replacement:${id}`,
      });
    }
    return 'done';
  }
}
