import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MarketModule } from '../market/market.module';
import { WalletModule } from '../wallet/wallet.module';
import { StakingController } from './staking.controller';
import { StakingRepository } from './staking.repository';
import { StakingService } from './staking.service';
import { StakingViewService } from './staking-view.service';

/**
 * The operators' stakes. Money moves through the wallet's LedgerService; the
 * rewards engine's automatic stake writes the same stake credit (reward-payouts stakeCredit).
 */
@Module({
  imports: [AuthModule, WalletModule, MarketModule],
  controllers: [StakingController],
  providers: [StakingRepository, StakingService, StakingViewService],
  exports: [StakingService],
})
export class StakingModule {}
