import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction-runner';
import type { WalletKind } from './ledger.service';
import { availableBalance, type FrozenLot } from './wallet-balance';
import { WalletRepository } from './wallet.repository';

/**
 * The wallet's balances as other domains read them (staking's view and its unstake rule): the
 * wallet's own definitions of frozen lots and of the available balance, never a copy of their
 * SQL. A decision that spends the available balance reads it locked, with
 * LedgerService.lockAvailable.
 */
@Injectable()
export class WalletBalancesService {
  constructor(private readonly repository: WalletRepository) {}

  /** The frozen lots of an owner's wallet or stake (docs/product/records.md#dashboard-records), in `tx` when given. */
  frozenLots(
    wallet: WalletKind,
    ownerUuid: string,
    now: Date,
    tx?: Transaction,
  ): Promise<FrozenLot[]> {
    return this.repository.frozenLots({ kind: wallet, ownerUuid }, now, tx);
  }

  /** An owner's balance and what of it is available (availableBalance), without locking. */
  async available(
    wallet: WalletKind,
    ownerUuid: string,
    now: Date,
  ): Promise<{ balanceMicro: bigint; frozenMicro: bigint; availableMicro: bigint }> {
    const [balances, lots] = await Promise.all([
      this.repository.balancesOf(ownerUuid, [wallet]),
      this.repository.frozenLots({ kind: wallet, ownerUuid }, now),
    ]);
    const balanceMicro = balances.get(wallet) ?? 0n;
    return { balanceMicro, ...availableBalance(balanceMicro, lots) };
  }

  /** The balances of an owner's wallets (0 for one never created), in `tx` when given. */
  balances<K extends WalletKind>(
    ownerUuid: string,
    wallets: readonly K[],
    tx?: Transaction,
  ): Promise<Map<K, bigint>> {
    return this.repository.balancesOf(ownerUuid, wallets, tx);
  }
}
