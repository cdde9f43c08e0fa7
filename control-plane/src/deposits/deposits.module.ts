import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { WalletModule } from '../wallet/wallet.module';
import {
  ADDRESS_CHAIN,
  ADDRESS_CHAIN_OFF,
  type AddressChain,
  Web3AddressChain,
} from './address-chain';
import { AddressDepositViewsService } from './address-deposit-views.service';
import { AddressDepositsService } from './address-deposits.service';
import { DepositAddressScanner } from './deposit-address-scanner.service';
import { DepositAddressWatcherJob } from './deposit-address-watcher.job';
import { DepositWatcherService } from './deposit-watcher.service';
import { DepositAddressService } from './deposit-address.service';
import { DepositAddressesRepository } from './deposit-addresses.repository';
import { DepositCreditService } from './deposit-credit.service';
import { DepositMatcherService } from './deposit-matcher.service';
import { DepositMetrics } from './deposit-metrics';
import { DepositRequestsService } from './deposit-requests.service';
import {
  SWEEP_CHAIN,
  SWEEP_CHAIN_OFF,
  type SweepChain,
  Web3SweepChain,
} from './deposit-sweep-chain';
import { DepositSweepJob } from './deposit-sweep.job';
import { DepositSweepService } from './deposit-sweep.service';
import { DepositSweepsRepository } from './deposit-sweeps.repository';
import { DepositVerifyService } from './deposit-verify.service';
import { DepositWatcherJob } from './deposit-watcher.job';
import { DepositsController, SolanaConfigController } from './deposits.controller';
import { DepositsRepository } from './deposits.repository';
import { DepositTransfersRepository } from './deposit-transfers.repository';
import { DEPOSIT_CHAIN, type DepositChain, Web3DepositChain } from './solana-chain';

/** A chain that is never asked: deposits are off, and every route answers 503 first. */
const OFF: DepositChain = {
  signaturesFor: () => Promise.reject(new Error('deposits are off')),
  transaction: () => Promise.reject(new Error('deposits are off')),
};

/**
 * Deposits: SOL requests with a Solana Pay reference, verification and their watcher;
 * per-account addresses taking SOL, USDC and USDT from anyone, their block watcher and the
 * sweep of their funds to the treasury.
 */
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
    DepositMetrics,
    DepositVerifyService,
    DepositWatcherService,
    DepositWatcherJob,
    DepositTransfersRepository,
    AddressDepositsService,
    AddressDepositViewsService,
    DepositAddressScanner,
    DepositAddressWatcherJob,
    DepositSweepsRepository,
    DepositSweepService,
    DepositSweepJob,
    {
      provide: SWEEP_CHAIN,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): SweepChain =>
        config.solana && config.sweeps ? new Web3SweepChain(config.solana) : SWEEP_CHAIN_OFF,
    },
    {
      provide: ADDRESS_CHAIN,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): AddressChain =>
        config.solana?.depositAddresses ? new Web3AddressChain(config.solana) : ADDRESS_CHAIN_OFF,
    },
    {
      provide: DEPOSIT_CHAIN,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): DepositChain =>
        config.solana ? new Web3DepositChain(config.solana) : OFF,
    },
  ],
})
export class DepositsModule {}
