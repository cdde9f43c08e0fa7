import { type DayWindow, SHARE_DAILY_CAP_MICRO, SHARE_PRIME_TIME, SHARE_REWARD } from '@scn/proto';
import { Trans } from 'react-i18next';
import { microSslToNumber } from '../../../lib/money';
import { type EconFormat, useEconomicsT } from '../use-econ-format';
import '../economics.css';

/** What the daily cap is, in SSL (SHARE_DAILY_CAP_MICRO is whole micro-SSL). */
export const SHARE_DAILY_CAP_SSL = microSslToNumber(SHARE_DAILY_CAP_MICRO);

/**
 * What a prime-time share pays after one share at the normal rate on the same day: the cap's
 * rest (1 - 0.1 = 0.9 SSL), in tenths so the float sum reads as the server's micro-SSL.
 */
export const PRIME_AFTER_NORMAL_SSL =
  Math.round(
    Math.min(SHARE_REWARD.primeTimeSsl, SHARE_DAILY_CAP_SSL - SHARE_REWARD.normalSsl) * 1_000_000,
  ) / 1_000_000;

function windows(
  f: EconFormat,
  t: ReturnType<typeof useEconomicsT>['t'],
  list: readonly DayWindow[],
) {
  return f.list(
    list.map(([start, end]) => t('share.window', { start: f.time(start), end: f.time(end) })),
  );
}

/**
 * docs/product/constants.md#market-prices-and-limits share-and-earn as the server pays it (control-plane/src/social/share-rules.ts reads
 * the same SHARE_PRIME_TIME and SHARE_REWARD of @scn/proto): prime time in the sharer's own time
 * zone, weekdays and weekend; the daily cap that pays a late prime-time share less; the limits.
 */
export function ShareRewardRules() {
  const { t, f } = useEconomicsT();
  const strong = { strong: <strong /> };
  return (
    <ul className="econ-list" data-testid="econ-share-rules">
      <li data-testid="econ-share-prime">
        <Trans
          ns="economics"
          i18nKey="share.prime"
          values={{
            ssl: f.ssl(SHARE_REWARD.primeTimeSsl, 1),
            weekdays: windows(f, t, SHARE_PRIME_TIME.weekday),
            weekendDays: f.list(SHARE_PRIME_TIME.weekendDays.map((day) => f.weekday(day))),
            weekend: windows(f, t, SHARE_PRIME_TIME.weekend),
          }}
          components={strong}
        />
      </li>
      <li>
        <Trans
          ns="economics"
          i18nKey="share.normal"
          values={{ ssl: f.ssl(SHARE_REWARD.normalSsl, 1) }}
          components={strong}
        />
      </li>
      <li data-testid="econ-share-cap">
        {t('share.cap', {
          cap: f.ssl(SHARE_DAILY_CAP_SSL, 1),
          normal: f.ssl(SHARE_REWARD.normalSsl, 1),
          rest: f.ssl(PRIME_AFTER_NORMAL_SSL, 1),
        })}
      </li>
      <li>
        {t('share.limits', {
          days: SHARE_REWARD.cooldownDays,
          hours: SHARE_REWARD.pendingHours,
        })}
      </li>
    </ul>
  );
}
