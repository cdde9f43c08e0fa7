import type { ServerSource } from './entities/server.entity';

/** What of a server decides whether clients can dial it. */
export interface ServerAddress {
  source: ServerSource;
  host: string | null;
  port: number | null;
  vlessString: string | null;
}

/**
 * docs/product/states.md#subscription-and-reliability-states (no address: not listed) and docs/product/states.md#market-and-account-states: whether clients have an address to dial,
 * the one rule of the market's listing and the purchase. Every server needs its host and port
 * (an agent's link is built from them, a manual server's were read from its link when it was
 * checked); a manual server also needs its stored link, which is what its clients get. The
 * market's SQL (market/sql/market_servers_inserted.sql, market_servers_updated.sql) writes the
 * same rule as `has_address`; market-rules.db-spec checks the two agree.
 */
export function hasDialableAddress(server: ServerAddress): boolean {
  return (
    Boolean(server.host) &&
    server.port !== null &&
    server.port > 0 &&
    (server.source !== 'manual' || Boolean(server.vlessString))
  );
}
