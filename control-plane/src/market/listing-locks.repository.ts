import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction-runner';

/**
 * The market's one lock order for writers that move an operator's money: a stake, an unstake or
 * a rewards batch changes the operator's listings from the ledger's trigger (market_stake_changed)
 * while it holds the wallets' locks, and a purchase locks a listing first and the wallet after.
 * So every such writer takes the operator's listings first, in server_id order, and the two
 * orders cannot deadlock.
 */
@Injectable()
export class ListingLocksRepository {
  /** Locks the listings of these operators' servers (server_id order) until `tx` ends. */
  async lockOwnersListings(tx: Transaction, owners: readonly string[]): Promise<void> {
    if (owners.length === 0) return;
    await tx.query(
      `SELECT l.server_id FROM market_listings l JOIN server_directory s ON s.id = l.server_id
       WHERE s.owner_uuid = ANY($1::uuid[]) ORDER BY l.server_id FOR NO KEY UPDATE OF l`,
      [owners],
    );
  }
}
