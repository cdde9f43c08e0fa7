import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';

export type WalletKind = 'client_wallet' | 'node_wallet';

export interface DepositAddressRow {
  ownerUuid: string;
  walletKind: WalletKind;
  derivationIndex: number;
  address: string;
}

interface RawAddress {
  owner_uuid: string;
  wallet_kind: WalletKind;
  derivation_index: number;
  address: string;
}

const toRow = (row: RawAddress): DepositAddressRow => ({
  ownerUuid: row.owner_uuid,
  walletKind: row.wallet_kind,
  derivationIndex: row.derivation_index,
  address: row.address,
});

/** The only SQL of per-account deposit addresses. */
@Injectable()
export class DepositAddressesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The wallet's address of `ownerUuid`, if it has one (scoped by owner: never another's). */
  async findOwned(ownerUuid: string, walletKind: WalletKind): Promise<DepositAddressRow | null> {
    const rows = await queryRows<RawAddress>(
      this.dataSource,
      `SELECT owner_uuid, wallet_kind, derivation_index, address FROM deposit_addresses
        WHERE owner_uuid = $1 AND wallet_kind = $2`,
      [ownerUuid, walletKind],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** A fresh derivation index from the table's sequence (a call that loses a race leaves a gap). */
  async nextIndex(): Promise<number> {
    const rows = await queryRows<{ index: string }>(
      this.dataSource,
      `SELECT nextval(pg_get_serial_sequence('deposit_addresses', 'derivation_index')) AS index`,
    );
    return Number(rows[0]!.index);
  }

  /**
   * Stores the wallet's address unless it already has one: the primary key decides between
   * concurrent first calls (no check-then-insert), and the caller reads the winner back.
   */
  async insertIfAbsent(row: DepositAddressRow): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO deposit_addresses (owner_uuid, wallet_kind, derivation_index, address)
       VALUES ($1, $2, $3, $4) ON CONFLICT (owner_uuid, wallet_kind) DO NOTHING`,
      [row.ownerUuid, row.walletKind, row.derivationIndex, row.address],
    );
  }
}
