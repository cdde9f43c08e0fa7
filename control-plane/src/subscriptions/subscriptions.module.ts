import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MarketModule } from '../market/market.module';
import { SUBSCRIBED_SERVERS } from '../market/subscribed-servers';
import { NodesModule } from '../nodes/nodes.module';
import { WalletModule } from '../wallet/wallet.module';
import { SubscriptionBillingJob } from './subscription-billing.job';
import { SubscriptionFeedController } from './subscription-feed.controller';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { PurchaseWriter } from './purchase-writer';
import { SubscriptionsService } from './subscriptions.service';

/**
 * Client subscriptions: purchase, the subscription URL, pauses, billing changes, renewals.
 * Global only to hand the market its SUBSCRIBED_SERVERS reader without a module cycle.
 */
@Global()
@Module({
  imports: [AuthModule, WalletModule, NodesModule, MarketModule],
  controllers: [SubscriptionsController, SubscriptionFeedController],
  providers: [
    SubscriptionsRepository,
    PurchaseWriter,
    SubscriptionsService,
    SubscriptionBillingJob,
    { provide: SUBSCRIBED_SERVERS, useExisting: SubscriptionsRepository },
  ],
  exports: [SubscriptionsService, SUBSCRIBED_SERVERS],
})
export class SubscriptionsModule {}
