import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * Purchases are written in batches (group commit), one statement per batch: the control plane
 * prices and checks each purchase, then `subscription_purchase_batch` runs every purchase of the
 * batch in its own subtransaction, in order, and answers one result per purchase. A purchase
 * that is refused (server gone or full, balance short) or fails rolls back alone; the others
 * commit together. Before, a purchase was 11 round trips between the control plane and
 * PostgreSQL, each a pair of system calls on both sides and most of the purchase's CPU.
 *
 * `subscription_purchase` is one purchase, all or nothing. A stored Idempotency-Key answers
 * `replayed` and writes nothing. Otherwise it locks the servers' client sets (id order) and
 * checks their capacity, locks the client's wallet and checks it covers the price, writes the
 * ledger transactions (entries in account id order: wallets are locked in one global order), the
 * subscription and its servers, adds its uuid to the client sets (version bump and NOTIFY at
 * commit), and stores the key with its answer (one write; a key taken meanwhile by a concurrent
 * request rolls the purchase back, answered as a replay: SCN00).
 *
 * The ledger's own triggers still keep every balance equal to its entries, every transaction
 * balanced and every wallet non-negative: this function cannot get around them.
 *
 * Refusals are raised with SQLSTATEs of our own: SCN00 (the key was taken meanwhile), SCN04
 * (server not found; message: its id), SCN09 (server full; message: its id), SCN02
 * (insufficient balance; message: the balance, detail: the amount required).
 *
 * The functions' bodies live in their source files (src/<domain>/sql, database/sql-functions.ts):
 * a fresh database gets their current version here, with the two they call since migration
 * 1800 (the ledger's one writer, `ledger_post`, and the capacity rule, `client_sets_take`), and a
 * database migrated before gets it from migration 1800.
 */
const PURCHASE_FUNCTIONS = [
  'ledger_account_id',
  'ledger_post',
  'client_sets_take',
  'subscription_purchase',
  'subscription_purchase_batch',
] as const;

export class PurchaseBatches1764000000600 implements MigrationInterface {
  name = 'PurchaseBatches1764000000600';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const name of PURCHASE_FUNCTIONS) await queryRunner.query(sqlFunction(name));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION subscription_purchase_batch(jsonb, text)`);
    await queryRunner.query(`DROP FUNCTION subscription_purchase(jsonb, text)`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS client_sets_take(jsonb, uuid, text)`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS ledger_post(jsonb)`);
    await queryRunner.query(`DROP FUNCTION ledger_account_id(varchar, uuid)`);
  }
}
