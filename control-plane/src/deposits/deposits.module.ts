import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { WalletModule } from '../wallet/wallet.module';
import { DepositAddressService } from './deposit-address.service';
import { DepositAddressesRepository } from './deposit-addresses.repository';
import { DepositCreditService } from './deposit-credit.service';
import { DepositMatcherService } from './deposit-matcher.service';
import { DepositRequestsService } from './deposit-requests.service';
import { DepositVerifyService } from './deposit-verify.service';
import { DepositWatcherJob } from './deposit-watcher.job';
import { DepositsController, SolanaConfigController } from './deposits.controller';
import { DepositsRepository } from './deposits.repository';
import { DEPOSIT_CHAIN, type DepositChain, Web3DepositChain } from './solana-chain';

/** A chain that is never asked: deposits are off, and every route answers 503 first. */
const OFF: DepositChain = {
  signaturesFor: () => Promise.reject(new Error('deposits are off')),
  transaction: () => Promise.reject(new Error('deposits are off')),
};

/** SOL deposits (issue 17): requests with a Solana Pay reference, verification, the watcher. */
@Module({
  imports: [AuthModule, RateLimitModule, WalletModule],
  controllers: [SolanaConfigController, DepositsController],
  providers: [
    DepositsRepository,
    DepositAddressesRepository,
    DepositAddressService,
    DepositRequestsService,
    DepositCreditService,
    DepositMatcherService,
    DepositVerifyService,
    DepositWatcherJob,
    {
      provide: DEPOSIT_CHAIN,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): DepositChain =>
        config.solana ? new Web3DepositChain(config.solana) : OFF,
    },
  ],
})
export class DepositsModule {}
