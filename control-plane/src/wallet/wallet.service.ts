import { Inject, Injectable } from '@nestjs/common';
import {
  type WalletData,
  type WalletSettingsResponse,
  PRICING,
  SSL_USD_PRICE_TEXT,
  sslToMicro,
} from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { CLOCK, type Clock } from '../common/clock';
import { launchPeriodActive } from '../common/launch-period';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { WalletKind } from './ledger.service';
import { LedgerService } from './ledger.service';
import { availableBalance } from './wallet-balance';
import { WalletException } from './wallet.exception';
import { WalletRepository } from './wallet.repository';

export type WalletType = 'client' | 'node';

const KIND_OF: Record<WalletType, WalletKind> = { client: 'client_wallet', node: 'node_wallet' };

/** Wallet reads and the rules of who may see or create which wallet. */
@Injectable()
export class WalletService {
  constructor(
    private readonly repository: WalletRepository,
    private readonly ledger: LedgerService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** docs/product/records.md#market-and-wallet-records: client and node wallets are separate; each account has the one of its type. */
  assertType(session: ActiveSession, type: WalletType): void {
    if (session.account.userType !== type) throw new WalletException('wrong_wallet_type');
  }

  async create(session: ActiveSession, type: WalletType): Promise<void> {
    this.assertType(session, type);
    await this.ledger.ensureWallet(KIND_OF[type], session.account.uuid);
  }

  /** The wallet of an account; an account without one yet sees an empty wallet (no write). */
  async view(
    ownerUuid: string,
    type: WalletType,
    page: { limit: number; before?: string },
  ): Promise<WalletData> {
    const now = this.clock.now();
    const accountId = await this.repository.findAccountId(KIND_OF[type], ownerUuid);
    const [balance, rows, lots] = accountId
      ? await Promise.all([
          this.repository.balance(accountId),
          this.repository.listEntries(accountId, page.limit + 1, page.before),
          type === 'node' ? this.repository.frozenLots(accountId, now) : Promise.resolve([]),
        ])
      : [0n, [], []];
    const { frozenMicro, availableMicro } = availableBalance(balance, lots);
    return {
      walletType: type,
      balanceMicro: balance.toString(),
      frozenAmountMicro: frozenMicro.toString(),
      frozenAmounts: lots.map((lot) => ({
        amountMicro: lot.amountMicro.toString(),
        frozenUntil: lot.frozenUntil.toISOString(),
      })),
      availableMicro: availableMicro.toString(),
      walletAddress: this.config.solana?.depositAddress ?? null,
      transactions: rows.slice(0, page.limit).map((row) => ({
        id: row.entryId,
        type: row.type,
        amountMicro: row.amountMicro,
        timestamp: row.createdAt.toISOString(),
        subscriptionId: row.subscriptionId,
        serverCount: row.serverCount,
        duration: row.duration,
        description: row.description,
        // What the portal words in the reader's language (null on older rows).
        descriptionCode: row.descriptionCode,
        descriptionValues: row.descriptionValues,
        frozenUntil: row.frozenUntil?.toISOString() ?? null,
        // A deposit's on-chain signature, for the explorer link of the cluster.
        signature: row.externalRef?.startsWith('sol:') ? row.externalRef.slice(4) : null,
      })),
      hasMore: rows.length > page.limit,
      lastUpdated: now.toISOString(),
    };
  }

  settings(): WalletSettingsResponse['settings'] {
    return {
      sslUsdPrice: SSL_USD_PRICE_TEXT,
      monthlyPerServerMicro: sslToMicro(PRICING.monthlyPerServerSsl).toString(),
      premiumPerServerMicro: sslToMicro(PRICING.premiumPerServerSsl).toString(),
      // docs/product/constants.md#billing-and-the-economy: 0.1 SSL per server per hour.
      hourlyPerServerMicro: sslToMicro(PRICING.hourlyPerServerSsl).toString(),
      hourlyBlockHours: PRICING.hourlyBlockHours,
      operatorRewardMicro: sslToMicro(PRICING.operatorRewardSsl).toString(),
      operatorRewardFrozenDays: PRICING.operatorRewardFrozenDays,
      launchPeriodEndsAt: this.config.launchPeriodEndsAt.toISOString(),
      launchPeriodActive: launchPeriodActive(this.clock.now(), this.config.launchPeriodEndsAt),
      withdrawalsEnabled: this.config.withdrawals !== null,
      depositsEnabled: this.config.solana !== null,
    };
  }
}
