/**
 * How a server's health reads, the same on the market and on the node dashboard (docs/product/constants.md#market-prices-and-limits
 * "Display", docs/product/states.md#subscription-and-reliability-states): one home, so the two pages cannot drift apart.
 */

export type Tone = 'success' | 'warning' | 'danger';

/** docs/product/constants.md#market-prices-and-limits: uptime in whole days and hours; null (shown as 'New') when 0 or unknown. */
export function uptimeParts(hours: number): { days: number; hours: number } | null {
  const whole = Number.isFinite(hours) ? Math.max(0, Math.floor(hours)) : 0;
  if (whole === 0) return null;
  return { days: Math.floor(whole / 24), hours: whole % 24 };
}

/** docs/product/constants.md#market-prices-and-limits: uptime in hours shows 'New' when 0 (or unknown), else 'Xd Yh'. */
export function formatUptime(hours: number): string {
  const parts = uptimeParts(hours);
  return parts ? `${parts.days}d ${parts.hours}h` : 'New';
}

/** docs/product/constants.md#market-prices-and-limits, docs/product/states.md#subscription-and-reliability-states: reliability green at 90 or more, yellow at 70 or more, else red. */
export function reliabilityTone(reliability: number): Tone {
  if (reliability >= 90) return 'success';
  if (reliability >= 70) return 'warning';
  return 'danger';
}

/** docs/product/constants.md#market-prices-and-limits: ping green under 50 ms, yellow under 100 ms, else red. */
export function pingTone(ping: number): Tone {
  if (ping < 50) return 'success';
  if (ping < 100) return 'warning';
  return 'danger';
}
