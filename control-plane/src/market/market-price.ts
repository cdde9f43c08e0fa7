import { MICRO_PER_SSL, PRICING } from '@scn/proto';
import { launchPeriodActive } from '../common/launch-period';

/**
 * The monthly price of one server as the market lists it, in micro-SSL (docs/product/records.md#market-and-wallet-records, docs/product/constants.md#market-prices-and-limits):
 * 10 SSL; 0 (free) for regular servers during the launch period; premium servers 10 SSL;
 * servers added without the agent always 0 (subscription-pricing.ts freeServer).
 */
export function listedPriceMicro(
  server: { premium: boolean; source: 'agent' | 'manual' },
  now: Date,
  launchPeriodEndsAt: Date,
): bigint {
  if (server.source === 'manual') return 0n;
  if (server.premium) return BigInt(PRICING.premiumPerServerSsl) * MICRO_PER_SSL;
  if (launchPeriodActive(now, launchPeriodEndsAt)) return 0n;
  return BigInt(PRICING.monthlyPerServerSsl) * MICRO_PER_SSL;
}

/** Whole SSL for display; the listed prices are whole numbers of SSL. */
export function wholeSsl(micro: bigint): number {
  return Number(micro / MICRO_PER_SSL);
}
