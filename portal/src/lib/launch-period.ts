import { PRICING } from '@scn/proto';
import { LAUNCH_PERIOD_ENDS_AT } from '../config/env';

/**
 * The launch period (spec 01 §1: access is complimentary through its last day), as the control
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

function endsAt(): Date {
  const configured = LAUNCH_PERIOD_ENDS_AT ? new Date(LAUNCH_PERIOD_ENDS_AT) : null;
  if (configured && !Number.isNaN(configured.getTime())) return configured;
  return new Date(`${PRICING.launchPeriodEnds}T23:59:59.999Z`);
}

export function launchPeriod(now: Date = new Date()): LaunchPeriod {
  const end = endsAt();
  return {
    endsAt: end,
    lastDay: end.toISOString().slice(0, 10),
    active: now.getTime() <= end.getTime(),
  };
}
