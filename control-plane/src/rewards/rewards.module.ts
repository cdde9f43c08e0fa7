import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MarketModule } from '../market/market.module';
import { WalletModule } from '../wallet/wallet.module';
import { EarningsService } from './earnings.service';
import { RewardComputer } from './reward-computer';
import { RewardEscrowRepository } from './reward-escrow.repository';
import { RewardEscrowService } from './reward-escrow.service';
import { RewardFactsRepository } from './reward-facts.repository';
import { RewardRunService } from './reward-run.service';
import { RewardStatementsRepository } from './reward-statements.repository';
import { RewardsController } from './rewards.controller';
import { RewardsJob } from './rewards.job';
import { RewardsTickService } from './rewards-tick.service';

/**
 * The operators' monthly rewards: statements, the pool's budget, the monthly
 * job, escrows and ban notices, and the earnings endpoint. Money moves through LedgerService.
 */
@Module({
  imports: [AuthModule, WalletModule, MarketModule],
  controllers: [RewardsController],
  providers: [
    RewardFactsRepository,
    RewardStatementsRepository,
    RewardEscrowRepository,
    RewardComputer,
    RewardRunService,
    RewardEscrowService,
    EarningsService,
    RewardsTickService,
    RewardsJob,
  ],
  exports: [RewardRunService, RewardsJob],
})
export class RewardsModule {}
