import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ListingLocksRepository } from './listing-locks.repository';
import { MarketController } from './market.controller';
import { MarketRefresh } from './market-refresh';
import { MarketRepository } from './market.repository';
import { MarketService } from './market.service';
import { PremiumServers } from './premium-servers';

/**
 * The server market. Exports PremiumServers (subscriptions price premium servers and skip
 * their operator reward), MarketRefresh (run by the nodes' minute reliability sweep) and
 * ListingLocksRepository (the listings' lock order for staking and the rewards run).
 */
@Module({
  imports: [AuthModule],
  controllers: [MarketController],
  providers: [
    MarketRepository,
    MarketService,
    MarketRefresh,
    PremiumServers,
    ListingLocksRepository,
  ],
  exports: [PremiumServers, MarketRefresh, ListingLocksRepository],
})
export class MarketModule {}
