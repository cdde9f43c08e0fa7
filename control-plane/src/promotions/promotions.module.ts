import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { WalletModule } from '../wallet/wallet.module';
import { PromotionsController } from './promotions.controller';
import { PromotionsRepository } from './promotions.repository';
import { PromotionsService } from './promotions.service';

/**
 * Server promotions. Money moves through the wallet's LedgerService; the market
 * reads the promotion from its listing (market_listings' promotion columns, written here).
 */
@Module({
  imports: [AuthModule, WalletModule],
  controllers: [PromotionsController],
  providers: [PromotionsRepository, PromotionsService],
})
export class PromotionsModule {}
