import { ECONOMICS, MICRO_PER_SSL, type LiveEconomy as LiveFigures } from '@scn/proto';
import { type ReactNode, useEffect, useState } from 'react';
import { getLiveEconomy } from '../api/get-live-economy';
import { formatNumber } from '../economics-format';

/** How often the figures are read again while the page is open. */
export const LIVE_REFRESH_MS = 60_000;

/** Whole SSL with thousands separators (figures this large need no decimals). */
export function wholeSsl(micro: string): string {
  return `${formatNumber(Number(BigInt(micro) / MICRO_PER_SSL), 0)} SSL`;
}

type State =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; live: LiveFigures };

/**
 * Issue 18 §6: the economy as it is now, beside the page's explanation: the reward pool, this
 * month's budget, what the pool paid, network reliability and stakes (GET /api/economics/live).
 */
export function LiveEconomy() {
  const [state, setState] = useState<State>({ status: 'loading' });
  // Try Again bumps it: the effect reads again and restarts the refresh timer.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let mounted = true;
    const read = () =>
      getLiveEconomy().then(
        (live) => mounted && setState({ status: 'ready', live }),
        (error: Error) => mounted && setState({ status: 'error', message: error.message }),
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
      <h2 id="econ-live-title">The network now</h2>
      {state.status === 'loading' ? (
        <p className="econ-block__lead">Loading live figures…</p>
      ) : null}
      {state.status === 'error' ? (
        <div className="econ-callout" role="alert">
          {state.message}{' '}
          <button type="button" className="btn btn--ghost" onClick={retry}>
            Try Again
          </button>
        </div>
      ) : null}
      {state.status === 'ready' ? <LiveFiguresGrid live={state.live} /> : null}
    </section>
  );
}

function LiveFiguresGrid({ live }: { live: LiveFigures }) {
  const reliability =
    live.networkReliability === null ? 'No reports yet' : `${live.networkReliability.toFixed(1)}%`;
  return (
    <>
      <dl className="econ-grid econ-grid--3 econ-live__grid">
        <Figure label="Reward pool" value={wholeSsl(live.poolMicro)}>
          of {wholeSsl(live.poolGenesisMicro)} at genesis; {wholeSsl(live.totalInflowMicro)} paid in
          since
        </Figure>
        <Figure label={`Budget for ${live.month}`} value={wholeSsl(live.monthBudgetMicro)}>
          month {live.cycleMonth} of the {ECONOMICS.rewardCycleMonths}-month reward cycle
        </Figure>
        <Figure label="Paid to operators for last month" value={wholeSsl(live.lastMonthPaidMicro)}>
          {wholeSsl(live.totalPaidMicro)} since genesis
        </Figure>
        <Figure label="Network reliability" value={reliability}>
          {live.reportingServers} of {live.servers} servers reporting; {live.hiddenServers} hidden
          below {ECONOMICS.hideBelowReliabilityPercent}%
        </Figure>
        <Figure label="Staked" value={wholeSsl(live.totalStakeMicro)}>
          by {live.stakers} {live.stakers === 1 ? 'operator' : 'operators'}
        </Figure>
      </dl>
      <p className="econ-fineprint">
        Computed {new Date(live.computedAt).toLocaleString('en-US', { timeZone: 'UTC' })} UTC; read
        again every minute.
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
