const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "3600", "30m", "12h", "7d" to seconds; null when it is not a duration. */
export function parseDuration(value: string): number | null {
  const match = /^\s*(\d+)\s*([smhd]?)\s*$/.exec(value);
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = UNITS[match[2] || 's'];
  if (!Number.isSafeInteger(amount) || unit === undefined) return null;
  return amount * unit;
}
