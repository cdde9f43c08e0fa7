import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MarketController } from './market.controller';
import { MarketRefresh } from './market-refresh';
import { MarketRepository } from './market.repository';
import { MarketService } from './market.service';
import { PremiumServers } from './premium-servers';

/**
 * The server market. Exports PremiumServers (subscriptions price premium servers and skip
 * their operator reward) and MarketRefresh (run by the nodes' minute reliability sweep).
 */
@Module({
  imports: [AuthModule],
  controllers: [MarketController],
  providers: [MarketRepository, MarketService, MarketRefresh, PremiumServers],
  exports: [PremiumServers, MarketRefresh],
})
export class MarketModule {}
