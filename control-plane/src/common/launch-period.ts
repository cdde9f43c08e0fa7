/**
 * docs/product/overview.md#what-scn-is: access is complimentary through the last day of the launch period
 * (config.launchPeriodEndsAt is the end of that day, UTC). The market, the purchase and the
 * wallet settings all ask this one rule.
 */
export function launchPeriodActive(now: Date, launchPeriodEndsAt: Date): boolean {
  return now.getTime() <= launchPeriodEndsAt.getTime();
}
