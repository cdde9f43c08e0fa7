import { Module } from '@nestjs/common';
import { MarketModule } from '../market/market.module';
import { FeedAnswer } from './feed-answer';
import { FeedInvalidation } from './feed-invalidation';
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
  providers: [SubscriptionFeedService, FeedReachability, FeedInvalidation, FeedAnswer],
  // FeedAnswer: bootstrap.ts mounts its fast path in front of Nest's router.
  exports: [SubscriptionFeedService, FeedAnswer],
})
export class SubscriptionFeedModule {}
