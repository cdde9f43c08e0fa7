import { PRICING } from '@scn/proto';
import { Trans } from 'react-i18next';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import type { Locale } from '../../../lib/i18n/locale';
import '../landing.css';

/**
 * '2025-12-31' as 'December 31, 2025' (in Persian, its Solar Hijri date), read in UTC so no time
 * zone shifts the day.
 */
export function formatLaunchEnd(isoDate: string, locale: Locale = 'en'): string {
  return formatDate(`${isoDate}T00:00:00Z`, locale, {
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
  const { t, locale } = useT();
  if (!isLaunchPeriod(PRICING.launchPeriodEnds)) return null;
  return (
    <div className="launch-banner" role="note" data-testid="launch-banner">
      <div className="container launch-banner__inner">
        <span className="launch-banner__badge">{t('landing.launch.badge')}</span>
        <span>
          <Trans
            i18nKey="landing.launch.text"
            values={{ date: formatLaunchEnd(PRICING.launchPeriodEnds, locale) }}
            components={{ strong: <strong /> }}
          />
        </span>
      </div>
    </div>
  );
}
