import {
  type MarketServer,
  type MarketServerStatus,
  PREMIUM_COUNTRY,
  PREMIUM_LOCATION,
  premiumServerName,
} from '@scn/proto';
import { RELIABILITY } from '../reliability/reliability';
import { listedPriceMicro, wholeSsl } from './market-price';
import type { ListingRow } from './market.repository';

export interface ViewContext {
  now: Date;
  launchPeriodEndsAt: Date;
}

/** docs/product/records.md#market-and-wallet-records status: offline when stale, unavailable when below 50 or its core is down. */
export function statusOf(
  row: Pick<ListingRow, 'stale' | 'reliability' | 'core_down'>,
): MarketServerStatus {
  if (row.stale) return 'offline';
  if (row.reliability < RELIABILITY.availableAt || row.core_down) return 'unavailable';
  return 'online';
}

function reasonOf(status: MarketServerStatus, free: number): string | null {
  if (status === 'offline') return 'Server is offline';
  if (status === 'unavailable') return 'Server is unavailable';
  if (free <= 0) return 'No available slots';
  return null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * A listing as the card reads it (docs/product/records.md#market-and-wallet-records, docs/product/states.md#market-and-account-states). The connection string is never handed out
 * here: a working one carries a client's own UUID, which only the subscription calls give.
 */
export function toMarketServer(row: ListingRow, context: ViewContext): MarketServer {
  const status = statusOf(row);
  const free = Math.max(0, row.capacity - row.allowed_clients);
  const priceMicro = listedPriceMicro(row, context.now, context.launchPeriodEndsAt);
  const price = wholeSsl(priceMicro);
  const inbound = row.inbound ?? {};
  const host = row.host ?? '';
  return {
    id: row.server_id,
    name:
      row.premium && row.premium_number !== null ? premiumServerName(row.premium_number) : row.name,
    ip: host,
    country: row.premium ? PREMIUM_COUNTRY : (row.country ?? ''),
    countryCode: row.country,
    location: row.premium ? PREMIUM_LOCATION : (row.location ?? ''),
    isPromoted: row.premium || row.promoted,
    isAdminServer: row.premium,
    availableUuids: free,
    hasAvailable: free > 0,
    price,
    priceMicro: priceMicro.toString(),
    nodeUUID: row.owner_uuid,
    userUuid: row.owner_uuid,
    authUuid: row.owner_uuid,
    lastUpdated: row.last_report_at ? new Date(row.last_report_at).toISOString() : null,
    // docs/product/states.md#market-and-account-states: 0 when disabled (unavailable, stale or no connect), 100 for admin servers.
    // (Not sort_reliability: that is the order's score, reachability included.)
    reliability: row.disabled ? 0 : row.premium ? 100 : row.reliability,
    ping: row.ping_ms,
    latency: row.ping_ms,
    uptime: row.uptime_hours,
    status,
    isDisabled: row.disabled,
    unavailable: status !== 'online',
    isStale: row.stale,
    serverType: row.source,
    sharedCredentials: row.source === 'manual',
    controls: {
      connectButton: !row.disabled,
      price,
      reason: row.disabled ? reasonOf(status, free) : null,
    },
    vlessLink: '',
    vlessString: '',
    host,
    port: row.port,
    security: text(inbound.security),
    sni: text(inbound.sni),
    fp: text(inbound.fp),
    pbk: text(inbound.pbk),
    sid: text(inbound.sid),
    flow: text(inbound.flow),
    type: text(inbound.network ?? inbound.type),
    activeConnections: row.active_clients,
    // Per client: MarketService sets it on top of the page shared by every visitor.
    isSubscribed: false,
    reachability: 'unknown',
  };
}
