import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MarketModule } from '../market/market.module';
import { SUBSCRIBED_SERVERS } from '../market/subscribed-servers';
import { ClientSetsModule } from '../client-sets/client-sets.module';
import { TrafficStoreModule } from '../traffic/traffic.module';
import { SubscriptionTrafficController } from './subscription-traffic.controller';
import { WalletModule } from '../wallet/wallet.module';
import { SubscriptionBillingJob } from './subscription-billing.job';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { PurchasesRepository } from './purchases.repository';
import { SERVER_DELETION } from '../nodes/server-deletion';
import { ServerDropService } from './server-drop.service';
import { ServerDropJob } from './server-drop.job';
import { ServerDropsRepository } from './server-drops.repository';
import { UnableServersService } from './unable-servers.service';
import { ServerReplacementJob } from './server-replacement.job';
import { ServerReplacements } from './server-replacement.service';
import { ServerReplacementsRepository } from './server-replacements.repository';
import { SubscriptionBillingService } from './subscription-billing.service';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionPaidChangesService } from './subscription-paid-changes.service';
import { SubscriptionPaymentsService } from './subscription-payments.service';
import { SubscriptionPurchaseService } from './subscription-purchase.service';
import { SubscriptionViewsService } from './subscription-views.service';
import { SubscriptionsNotifier } from './subscriptions.notifier';

/**
 * Client subscriptions: purchase, the subscription URL's secrets, pauses, billing changes,
 * renewals (the feed at that URL is its own domain, subscription-feed/, which reads this one).
 * Global only to hand the market its SUBSCRIBED_SERVERS reader, and the nodes domain its
 * SERVER_DELETION step (refunds when a server is deleted), without a module cycle. It injects
 * SUBSCRIPTION_REACHABILITY (replacements of blocked servers), which the reachability domain
 * provides globally; without it no server is replaced.
 */
@Global()
@Module({
  imports: [AuthModule, WalletModule, ClientSetsModule, MarketModule, TrafficStoreModule],
  controllers: [SubscriptionsController, SubscriptionTrafficController],
  providers: [
    SubscriptionsRepository,
    PurchasesRepository,
    SubscriptionsNotifier,
    SubscriptionPaymentsService,
    SubscriptionViewsService,
    SubscriptionPurchaseService,
    SubscriptionLifecycleService,
    SubscriptionPaidChangesService,
    SubscriptionBillingService,
    SubscriptionBillingJob,
    ServerDropsRepository,
    ServerDropService,
    UnableServersService,
    ServerDropJob,
    ServerReplacementsRepository,
    ServerReplacements,
    ServerReplacementJob,
    { provide: SUBSCRIBED_SERVERS, useExisting: SubscriptionsRepository },
    { provide: SERVER_DELETION, useExisting: ServerDropService },
  ],
  // ServerReplacements: reachability calls replaceDue(serverIds) right after states change.
  // SubscriptionsRepository: the feed (subscription-feed/) reads its snapshot through it.
  exports: [SUBSCRIBED_SERVERS, SERVER_DELETION, ServerReplacements, SubscriptionsRepository],
})
export class SubscriptionsModule {}
