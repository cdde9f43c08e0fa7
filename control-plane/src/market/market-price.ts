import { MICRO_PER_SSL, PRICING } from '@scn/proto';
import { launchPeriodActive } from '../common/launch-period';

/**
 * The monthly price of one server as the market lists it, in micro-SSL (spec 01 §3, §9):
 * 10 SSL; 0 (free) for regular servers during the launch period; premium servers 10 SSL.
 */
export function listedPriceMicro(premium: boolean, now: Date, launchPeriodEndsAt: Date): bigint {
  if (premium) return BigInt(PRICING.premiumPerServerSsl) * MICRO_PER_SSL;
  if (launchPeriodActive(now, launchPeriodEndsAt)) return 0n;
  return BigInt(PRICING.monthlyPerServerSsl) * MICRO_PER_SSL;
}

/** Whole SSL for display; the listed prices are whole numbers of SSL. */
export function wholeSsl(micro: bigint): number {
  return Number(micro / MICRO_PER_SSL);
}
