import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { LedgerMetrics } from './ledger-metrics';
import { LedgerService } from './ledger.service';
import { WalletBalancesService } from './wallet-balances.service';
import { WalletController } from './wallet.controller';
import { WalletRepository } from './wallet.repository';
import { WalletService } from './wallet.service';

/** Wallets and the ledger. Other domains move money only through LedgerService. */
@Module({
  imports: [AuthModule],
  controllers: [WalletController],
  providers: [
    WalletRepository,
    IdempotencyRepository,
    LedgerService,
    WalletService,
    WalletBalancesService,
    IdempotencyService,
    LedgerMetrics,
  ],
  exports: [LedgerService, IdempotencyService, WalletService, WalletBalancesService],
})
export class WalletModule {}
