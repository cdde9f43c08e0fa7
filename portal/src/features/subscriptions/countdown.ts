/**
 * docs/product/states.md#subscription-and-reliability-states: hourly subscriptions show the remaining time computed from expirationDate,
 * refreshed every 60 s, as hours:minutes, with 100:00 as the fallback (docs/product/constants.md#billing-and-the-economy: 100 hours
 * per hourly block).
 */
export const COUNTDOWN_REFRESH_MS = 60_000;
export const COUNTDOWN_FALLBACK = '100:00';

const pad2 = (value: number) => value.toString().padStart(2, '0');

/** Whole hours and minutes of `ms` (never negative): 5_400_000 -> "01:30". */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 60_000));
  return `${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`;
}

/** Time left until `expirationDate` at `now`; the fallback when the date is missing or invalid. */
export function countdownText(expirationDate: string | null | undefined, now: number): string {
  if (!expirationDate) return COUNTDOWN_FALLBACK;
  const end = Date.parse(expirationDate);
  if (Number.isNaN(end)) return COUNTDOWN_FALLBACK;
  return formatDuration(end - now);
}

/** A paused subscription's clock stands still: its remaining paid time as the server gave it. */
export function pausedCountdownText(remainingSeconds: number | null | undefined): string {
  if (remainingSeconds === null || remainingSeconds === undefined) return COUNTDOWN_FALLBACK;
  if (!Number.isFinite(remainingSeconds)) return COUNTDOWN_FALLBACK;
  return formatDuration(remainingSeconds * 1000);
}
