import type { ReachabilityRow, ReachabilityState } from '@scn/proto';
import { formatNumber } from '../../lib/i18n/format';
import { useT } from '../../lib/i18n/i18n';
import {
  asnLabel,
  countryName,
  reachabilityTone,
  relativeTime,
  sortReachabilityRows,
} from '../../lib/reachability-display';
import { CountryFlag } from '../ui/country-flag';
import './reachability.css';

/** The state's word in a row or a badge (common catalogue `reach.state.*`). */
export function ReachabilityStateLabel({ state }: { state: ReachabilityState }) {
  const { t } = useT();
  return (
    <span
      className={`reach-state reach-state--${reachabilityTone(state)}`}
      data-testid="reach-state"
      data-state={state}
    >
      {t(`reach.state.${state}`)}
    </span>
  );
}

export interface ReachabilityTableProps {
  rows: readonly ReachabilityRow[];
  /** What relative times are measured from (the time of the load). */
  now: number;
  /** Accessible name of the table. */
  caption: string;
  'data-testid'?: string;
}

/**
 * Where a server works, per country and network (docs/reachability.md): blocked rows first (red),
 * then where it works; "Not measured yet" when nobody has measured it. Scrolls sideways inside
 * its own box on a phone, never the page.
 */
export function ReachabilityTable({
  rows,
  now,
  caption,
  'data-testid': testId = 'reach-table',
}: ReachabilityTableProps) {
  const { t, locale } = useT();
  if (rows.length === 0) {
    return (
      <p className="small muted" data-testid="reach-empty">
        {t('reach.table.empty')}
      </p>
    );
  }
  return (
    <div className="reach-table-wrap">
      <table className="data-table reach-table" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('reach.table.country')}</th>
            <th scope="col">{t('reach.table.network')}</th>
            <th scope="col">{t('reach.table.state')}</th>
            <th scope="col">{t('reach.table.observers')}</th>
            <th scope="col">{t('reach.table.measured')}</th>
          </tr>
        </thead>
        <tbody>
          {sortReachabilityRows(rows).map((row) => (
            <tr
              key={`${row.country}-${row.asn}`}
              className={`reach-table__row reach-table__row--${row.state}`}
              data-testid="reach-row"
              data-state={row.state}
            >
              <td>
                <span className="reach-table__country">
                  <CountryFlag code={row.country} />
                  {countryName(row.country, locale)}
                </span>
              </td>
              <td>
                <bdi dir="ltr">{asnLabel(row.asn, row.asnName)}</bdi>
              </td>
              <td>
                <ReachabilityStateLabel state={row.state} />
                {row.blockedSince && (
                  <span className="small muted reach-table__since">
                    {t('reach.table.blockedSince', {
                      when: relativeTime(row.blockedSince, now, locale),
                    })}
                  </span>
                )}
              </td>
              <td>
                <span
                  title={t('reach.table.observersHint', {
                    probes: row.probes,
                  })}
                >
                  {formatNumber(row.observers, locale)}
                </span>
              </td>
              <td>
                <time dateTime={row.measuredAt}>{relativeTime(row.measuredAt, now, locale)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
