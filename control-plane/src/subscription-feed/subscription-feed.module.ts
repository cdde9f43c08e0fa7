import { Module } from '@nestjs/common';
import { MarketModule } from '../market/market.module';
import { FeedReachability } from './feed-reachability';
import { SubscriptionFeedController } from './subscription-feed.controller';
import { SubscriptionFeedService } from './subscription-feed.service';

/**
 * The subscription URL's feed (`GET /sub/<secret>`; docs/architecture.md#subscription-feed):
 * what v2ray-family apps and browsers fetch. It reads the subscriptions domain (its repository,
 * exported by the global SubscriptionsModule) and nothing reads it back: subscriptions keep the
 * URL secrets and the share links, which their own views and files use too.
 */
@Module({
  imports: [MarketModule],
  controllers: [SubscriptionFeedController],
  providers: [SubscriptionFeedService, FeedReachability],
  exports: [SubscriptionFeedService],
})
export class SubscriptionFeedModule {}
