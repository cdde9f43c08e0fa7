import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { WalletModule } from '../wallet/wallet.module';
import { PAYOUT_CHAIN, type PayoutChain, Web3PayoutChain } from './payout-chain';
import { WithdrawalMetrics } from './withdrawal-metrics';
import { WithdrawalPayoutJob } from './withdrawal-payout.job';
import { WithdrawalPayoutService } from './withdrawal-payout.service';
import { WithdrawalsController } from './withdrawals.controller';
import { WithdrawalsRepository } from './withdrawals.repository';
import { WithdrawalsService } from './withdrawals.service';

const off = () => Promise.reject(new Error('withdrawals are off'));

/** A chain that is never asked: withdrawals are off, and the worker does not run. */
const OFF: PayoutChain = {
  latestBlockhash: off,
  simulate: off,
  send: off,
  statuses: off,
  finalizedBlockHeight: off,
};

/** Withdrawals of node wallets: requests, and the payout worker. */
@Module({
  imports: [AuthModule, WalletModule],
  controllers: [WithdrawalsController],
  providers: [
    WithdrawalsRepository,
    WithdrawalsService,
    WithdrawalPayoutService,
    WithdrawalPayoutJob,
    WithdrawalMetrics,
    {
      provide: PAYOUT_CHAIN,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): PayoutChain =>
        config.withdrawals && config.solana ? new Web3PayoutChain(config.solana) : OFF,
    },
  ],
})
export class WithdrawalsModule {}
