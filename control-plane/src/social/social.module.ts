import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { WalletModule } from '../wallet/wallet.module';
import { ShareRewardsJob } from './share-rewards.job';
import { ShareRewardsService } from './share-rewards.service';
import { SocialController } from './social.controller';
import { SocialRepository } from './social.repository';
import { SocialService } from './social.service';

/**
 * Share-and-earn: shares, their server-computed rewards and the job that pays
 * them from the reward pool after 24 hours. Money moves through the wallet's LedgerService.
 */
@Module({
  imports: [AuthModule, WalletModule],
  controllers: [SocialController],
  providers: [SocialRepository, SocialService, ShareRewardsService, ShareRewardsJob],
  exports: [ShareRewardsJob],
})
export class SocialModule {}
