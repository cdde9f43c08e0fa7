import { Trans } from 'react-i18next';
import { useT } from '../../../lib/i18n/i18n';
import { formatLaunchLastDay, launchPeriod } from '../../../lib/launch-period';
import '../landing.css';

/**
 * docs/product/overview.md#what-scn-is: access is complimentary through the end of the launch period (LAUNCH_PERIOD_ENDS,
 * lib/launch-period.ts); gone after it.
 */
export function LaunchBanner() {
  const { t, locale } = useT();
  const period = launchPeriod();
  if (!period.active) return null;
  return (
    <div className="launch-banner" role="note" data-testid="launch-banner">
      <div className="container launch-banner__inner">
        <span className="launch-banner__badge">{t('landing.launch.badge')}</span>
        <span>
          <Trans
            i18nKey="landing.launch.text"
            values={{ date: formatLaunchLastDay(period, locale) }}
            components={{ strong: <strong /> }}
          />
        </span>
      </div>
    </div>
  );
}
