import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DepositAddressResponse } from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { DepositAddressSettings } from '../config/solana-settings';
import { depositAddress } from './deposit-address-derivation';
import { type DepositAddressRow, DepositAddressesRepository } from './deposit-addresses.repository';
import { depositCurrencies } from './deposit-currencies';
import { walletOf } from './deposit-requests.service';
import { DepositsException } from './deposits.exception';

/** Per-account deposit addresses (docs/deposits.md#per-account-addresses). */
@Injectable()
export class DepositAddressService {
  private readonly logger = new Logger(DepositAddressService.name);

  constructor(
    private readonly repository: DepositAddressesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The session account's own address of `wallet` (default: its own wallet), created on the
   * first call. A wallet of the other account type is refused (403), as the wallet routes do.
   */
  async forSession(
    session: ActiveSession,
    wallet: 'client' | 'node' | undefined,
  ): Promise<DepositAddressResponse> {
    const row = await this.ownAddress(session, wallet);
    return {
      success: true,
      address: row.address,
      wallet: row.walletKind === 'node_wallet' ? 'node' : 'client',
      currencies: depositCurrencies(this.settings(), this.config.solana!.sslPerSol),
    };
  }

  /** The session account's address row of `wallet` (its own kind by default), created once. */
  ownAddress(
    session: ActiveSession,
    wallet: 'client' | 'node' | undefined,
  ): Promise<DepositAddressRow> {
    const settings = this.settings();
    const own = walletOf(session);
    const walletKind = wallet ? (`${wallet}_wallet` as const) : own;
    if (walletKind !== own) throw new DepositsException('wrong_wallet_type');
    return this.ensure(session.account.uuid, walletKind, settings);
  }

  /** 409 addresses_off without SOLANA_DEPOSIT_SEED: a setting the operator has not made. */
  private settings(): DepositAddressSettings {
    const settings = this.config.solana?.depositAddresses;
    if (!settings) throw new DepositsException('addresses_off');
    return settings;
  }

  private async ensure(
    ownerUuid: string,
    walletKind: DepositAddressRow['walletKind'],
    settings: DepositAddressSettings,
  ): Promise<DepositAddressRow> {
    let row = await this.repository.findOwned(ownerUuid, walletKind);
    if (!row) {
      const derivationIndex = await this.repository.nextIndex();
      await this.repository.insertIfAbsent({
        ownerUuid,
        walletKind,
        derivationIndex,
        address: depositAddress(settings.seed, derivationIndex),
      });
      row = await this.repository.findOwned(ownerUuid, walletKind);
      if (!row) throw new Error(`deposit address of ${ownerUuid} vanished after its insert`);
    }
    // A stored address the seed no longer derives would take funds the platform cannot sweep:
    // never show it (the seed was changed; the operator must restore the old one).
    if (depositAddress(settings.seed, row.derivationIndex) !== row.address) {
      this.logger.error(
        `deposit address #${row.derivationIndex} does not derive from SOLANA_DEPOSIT_SEED: was the seed changed?`,
      );
      throw new DepositsException('addresses_off');
    }
    return row;
  }
}
