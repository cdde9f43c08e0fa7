import { ECONOMICS, MICRO_PER_SSL, type LiveEconomy as LiveFigures } from '@scn/proto';
import { type ReactNode, useEffect, useState } from 'react';
import { formatDate, formatNumber } from '../../../lib/i18n/format';
import { getLiveEconomy } from '../api/get-live-economy';
import { type EconFormat, useEconomicsT } from '../use-econ-format';

/** How often the figures are read again while the page is open. */
export const LIVE_REFRESH_MS = 60_000;

/** Whole SSL with thousands separators (figures this large need no decimals). */
function wholeSsl(f: EconFormat, micro: string): string {
  return f.ssl(Number(BigInt(micro) / MICRO_PER_SSL), 0);
}

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; live: LiveFigures };

/**
 * The economy as it is now, beside the page's explanation: the reward pool, this
 * month's budget, what the pool paid, network reliability and stakes (GET /api/economics/live).
 */
export function LiveEconomy() {
  const { t } = useEconomicsT();
  const [state, setState] = useState<State>({ status: 'loading' });
  // Try Again bumps it: the effect reads again and restarts the refresh timer.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let mounted = true;
    const read = () =>
      getLiveEconomy().then(
        (live) => mounted && setState({ status: 'ready', live }),
        () => mounted && setState({ status: 'error' }),
      );
    void read();
    const timer = setInterval(() => void read(), LIVE_REFRESH_MS);
    return () => {
      mounted = false;
      clearInterval(timer);
    };
  }, [attempt]);

  const retry = () => {
    setState({ status: 'loading' });
    setAttempt((value) => value + 1);
  };

  return (
    <section
      className="econ-block econ-live"
      aria-labelledby="econ-live-title"
      aria-busy={state.status === 'loading'}
      data-testid="live-economy"
    >
      <h2 id="econ-live-title">{t('live.title')}</h2>
      {state.status === 'loading' ? <p className="econ-block__lead">{t('live.loading')}</p> : null}
      {state.status === 'error' ? (
        <div className="econ-callout" role="alert">
          {t('live.error')}{' '}
          <button type="button" className="btn btn--ghost" onClick={retry}>
            {t('live.retry')}
          </button>
        </div>
      ) : null}
      {state.status === 'ready' ? <LiveFiguresGrid live={state.live} /> : null}
    </section>
  );
}

function LiveFiguresGrid({ live }: { live: LiveFigures }) {
  const { t, f } = useEconomicsT();
  const reliability =
    live.networkReliability === null
      ? t('live.noReports')
      : formatNumber(live.networkReliability / 100, f.locale, {
          style: 'percent',
          minimumFractionDigits: 1,
          maximumFractionDigits: 1,
        });
  // The month in the Gregorian calendar in every language: the budget is per calendar month.
  const month = formatDate(`${live.month}-01T00:00:00Z`, f.locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
    calendar: 'gregory',
  });
  return (
    <>
      <dl className="econ-grid econ-grid--3 econ-live__grid">
        <Figure label={t('live.pool.label')} value={wholeSsl(f, live.poolMicro)}>
          {t('live.pool.detail', {
            genesis: wholeSsl(f, live.poolGenesisMicro),
            inflow: wholeSsl(f, live.totalInflowMicro),
          })}
        </Figure>
        <Figure
          label={t('live.budget.label', { month })}
          value={wholeSsl(f, live.monthBudgetMicro)}
        >
          {t('live.budget.detail', {
            month: f.num(live.cycleMonth),
            months: ECONOMICS.rewardCycleMonths,
          })}
        </Figure>
        <Figure label={t('live.paid.label')} value={wholeSsl(f, live.lastMonthPaidMicro)}>
          {t('live.paid.detail', { total: wholeSsl(f, live.totalPaidMicro) })}
        </Figure>
        <Figure label={t('live.reliability.label')} value={reliability}>
          {t('live.reliability.detail', {
            reporting: f.num(live.reportingServers),
            servers: f.num(live.servers),
            hidden: f.num(live.hiddenServers),
            percent: f.pct(ECONOMICS.hideBelowReliabilityPercent),
          })}
        </Figure>
        <Figure label={t('live.staked.label')} value={wholeSsl(f, live.totalStakeMicro)}>
          {t('live.staked.detail', { count: live.stakers })}
        </Figure>
      </dl>
      <p className="econ-fineprint">
        {t('live.computed', {
          at: formatDate(live.computedAt, f.locale, {
            dateStyle: 'medium',
            timeStyle: 'short',
            timeZone: 'UTC',
          }),
        })}
      </p>
    </>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children: ReactNode }) {
  return (
    <div className="econ-card econ-live__figure">
      <dt>{label}</dt>
      <dd className="econ-card__price">{value}</dd>
      <dd className="econ-live__detail">{children}</dd>
    </div>
  );
}
