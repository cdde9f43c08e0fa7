import { PRICING } from '@scn/proto';
import '../landing.css';

/** '2025-12-31' as 'December 31, 2025', read in UTC so no time zone shifts the day. */
export function formatLaunchEnd(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** True until the end (UTC) of the launch period's last day. */
export function isLaunchPeriod(isoDate: string, now = new Date()): boolean {
  return now.getTime() < new Date(`${isoDate}T23:59:59.999Z`).getTime();
}

/** spec 01 §1: access is complimentary through the end of the launch period; gone after it. */
export function LaunchBanner() {
  if (!isLaunchPeriod(PRICING.launchPeriodEnds)) return null;
  return (
    <div className="launch-banner" role="note" data-testid="launch-banner">
      <div className="container launch-banner__inner">
        <span className="launch-banner__badge">Launch period</span>
        <span>
          Access is complimentary through{' '}
          <strong>{formatLaunchEnd(PRICING.launchPeriodEnds)}</strong>.
        </span>
      </div>
    </div>
  );
}
