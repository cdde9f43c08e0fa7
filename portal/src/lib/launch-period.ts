import { PRICING } from '@scn/proto';
import { LAUNCH_PERIOD_ACTIVE_AT_LOAD, LAUNCH_PERIOD_ENDS_AT } from '../config/env';
import { formatDate } from './i18n/format';
import type { Locale } from './i18n/locale';

/**
 * The launch period (docs/product/overview.md#what-scn-is: access is complimentary through its last day), as the control
 * plane is configured (`LAUNCH_PERIOD_ENDS`, written into the page), so no page claims free access
 * after it ends. Every page that mentions the launch period asks here, never a typed date.
 */
export interface LaunchPeriod {
  /** The end of its last day, UTC. */
  endsAt: Date;
  /** The day to show as "through {date}" (the last day, not the instant after it). */
  lastDay: string;
  active: boolean;
}

export interface LaunchPeriodSettings {
  /** The end of the last day as an ISO instant (the page's `scn:launch-period-ends`). */
  endsAt: string | null;
  /** Whether it applied by the server's clock when the page was sent (`scn:launch-period-active`). */
  activeAtLoad: boolean | null;
}

const PAGE_SETTINGS: LaunchPeriodSettings = {
  endsAt: LAUNCH_PERIOD_ENDS_AT,
  activeAtLoad: LAUNCH_PERIOD_ACTIVE_AT_LOAD,
};

function endsAt(configured: string | null): Date {
  const end = configured ? new Date(configured) : null;
  if (end && !Number.isNaN(end.getTime())) return end;
  return new Date(`${PRICING.launchPeriodEnds}T23:59:59.999Z`);
}

/**
 * Active while the server said so when it sent the page (its clock decides, not a phone's that
 * may be wrong) and the end has not passed since by this browser's clock (a page left open past
 * the end stops claiming it). Without the server's word (dev), the browser's clock alone.
 */
export function launchPeriod(
  now: Date = new Date(),
  settings: LaunchPeriodSettings = PAGE_SETTINGS,
): LaunchPeriod {
  const end = endsAt(settings.endsAt);
  return {
    endsAt: end,
    lastDay: end.toISOString().slice(0, 10),
    active: settings.activeAtLoad !== false && now.getTime() <= end.getTime(),
  };
}

/**
 * The last day as "December 31, 2025" in the reader's language (in Persian, its Solar Hijri
 * date), read in UTC so no time zone shifts the day.
 */
export function formatLaunchLastDay(period: LaunchPeriod, locale: Locale): string {
  return formatDate(`${period.lastDay}T00:00:00Z`, locale, {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
