/**
 * Hardware age (docs/product/states.md#subscription-and-reliability-states "Hardware age"): after 4 years of hardware without an
 * upgrade, halving protection applies. `servers.hardware_since` is set by the first report that
 * carries the hardware and reset by one with more cores or more memory than the stored
 * hardware (an upgrade); the same hardware or less keeps it.
 *
 * Memory counts as more when it grows by at least RAM_UPGRADE_MIN_PERCENT: the total memory a
 * machine reports moves by a few megabytes with a kernel update, which is not an upgrade, while
 * the smallest real one (a tier's 1 GB more) is far above it.
 */
export const RAM_UPGRADE_MIN_PERCENT = 5;

/** What the rule reads of a hardware summary (as stored: cores a number, bytes a decimal string). */
export interface HardwareSize {
  cpuCores: number;
  ramBytes: string | number;
}

/** Whether `next` is an upgrade of `stored` (more cores, or at least 5% more memory). */
export function hardwareUpgraded(stored: HardwareSize, next: HardwareSize): boolean {
  if (next.cpuCores > stored.cpuCores) return true;
  const before = BigInt(stored.ramBytes);
  const after = BigInt(next.ramBytes);
  return after * 100n >= before * BigInt(100 + RAM_UPGRADE_MIN_PERCENT) && after > before;
}

/**
 * The same rule in SQL, for the report writer's one statement: `stored` and `next` are jsonb
 * hardware summaries (`cpuCores`, `ramBytes`). A stored summary without them (never the case for
 * a validated report) counts as the smallest.
 */
export function hardwareUpgradedSql(stored: string, next: string): string {
  return `((${next}->>'cpuCores')::int > COALESCE((${stored}->>'cpuCores')::int, 0)
    OR ((${next}->>'ramBytes')::numeric * 100 >= COALESCE((${stored}->>'ramBytes')::numeric, 0) * ${100 + RAM_UPGRADE_MIN_PERCENT}
        AND (${next}->>'ramBytes')::numeric > COALESCE((${stored}->>'ramBytes')::numeric, 0)))`;
}

/**
 * The new `hardware_since` of a report: its time when it is the first with hardware or an
 * upgrade, else the stored one. `s` is the servers row, `hardware` the report's jsonb (null when
 * the report left it out) and `at` its time.
 */
export function hardwareSinceSql(hardware: string, at: string): string {
  return `CASE WHEN ${hardware} IS NULL THEN s.hardware_since
    WHEN s.hardware_since IS NULL OR s.hardware IS NULL OR ${hardwareUpgradedSql('s.hardware', hardware)} THEN ${at}
    ELSE s.hardware_since END`;
}
