import type { MigrationInterface, QueryRunner } from 'typeorm';
import { allSqlFunctions } from '../sql-functions';

/**
 * Every SQL function from its one source file (src/<domain>/sql/<name>.sql), so a
 * database migrated before and a fresh one end identical (sql-functions.db-spec checks both).
 * Three functions are new: `ledger_post`, the one writer of ledger transactions and entries (the
 * purchase and LedgerService both call it); `client_sets_take`, the one client-set capacity
 * check (the purchase calls it); and `market_counts_apply`, the counters' upsert that the three
 * `market_listings_count_*` triggers each carried. The functions that now call them do the same
 * as before; `market_capacity` and `market_listing_derive` read their constants from @scn/proto
 * (the same values). Every other function gets the body it had (layout and comments aside).
 *
 * Nothing to undo: the functions behave as the ones they replace, and the old bodies would call
 * nothing that is gone. (Migrations 100 and 600 drop the new functions with their callers.)
 */
export class SqlFunctionSources1764000001800 implements MigrationInterface {
  name = 'SqlFunctionSources1764000001800';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const { sql } of allSqlFunctions()) await queryRunner.query(sql);
  }

  public async down(): Promise<void> {
    // See above.
  }
}
