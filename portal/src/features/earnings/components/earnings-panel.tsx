import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { onRealtime } from '../../../lib/realtime';
import { periodChoices } from '../earnings-periods';
import { refreshEarnings, useEarnings } from '../api/get-earnings';
import { EarningsStatement } from './earnings-statement';
import { PeriodPicker } from './period-picker';
import '../earnings.css';

export interface EarningsPanelProps {
  ownerUuid: string;
  /** When the account's first server was added (the earliest month to choose); null: none. */
  firstServerAt: string | null;
}

/**
 * The node dashboard's earnings: this month's dry run, clearly marked as so
 * far and not final, or an earlier month's statement, each server's lines with their inputs and
 * the server's explanation, the staking income and the totals.
 */
export function EarningsPanel(props: EarningsPanelProps) {
  // Its words wait for the `earn` catalogue here, so the rest of the page never does.
  return (
    <Suspense
      fallback={
        <section className="card earnings-panel" aria-busy="true">
          <span className="spinner" aria-hidden="true" />
        </section>
      }
    >
      <EarningsPanelBody {...props} />
    </Suspense>
  );
}

function EarningsPanelBody({ ownerUuid, firstServerAt }: EarningsPanelProps) {
  const { t } = useT('earn');
  // The month chosen (client state); each visit, and each account, starts at the current one.
  const [chosen, choose] = useState<{ ownerUuid: string; period: string } | null>(null);
  const period = chosen?.ownerUuid === ownerUuid ? chosen.period : null;
  const earnings = useEarnings(ownerUuid, period);
  const titleId = useId();
  const periodRef = useRef(period);
  useEffect(() => {
    periodRef.current = period;
  }, [period]);

  // A payout or a subscription reward changes the figures of the month shown.
  useEffect(
    () => onRealtime('wallet-updated', () => void refreshEarnings(ownerUuid, periodRef.current)),
    [ownerUuid],
  );

  const latest = earnings.latestPeriod;
  const shown = earnings.period;
  const data = earnings.data;

  return (
    <section className="card earnings-panel" aria-labelledby={titleId} data-testid="earnings-panel">
      <header className="earnings-panel__header">
        <div>
          <h2 id={titleId}>{t('earnings.title')}</h2>
          <p className="muted small">{t('earnings.summary')}</p>
        </div>
        {latest && shown && (
          <PeriodPicker
            period={shown}
            choices={periodChoices(firstServerAt, latest)}
            disabled={earnings.status === 'loading'}
            onSelect={(picked) => choose({ ownerUuid, period: picked })}
          />
        )}
      </header>

      {earnings.status === 'error' ? (
        <div className="stack">
          <Banner tone="error" data-testid="earnings-error">
            {earnings.error}
          </Banner>
          <div>
            <Button variant="secondary" onClick={earnings.reload}>
              {t('common.tryAgain')}
            </Button>
          </div>
        </div>
      ) : !data ? (
        <div className="earnings-panel__loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('earnings.loading')}</span>
        </div>
      ) : (
        <EarningsStatement earnings={data} />
      )}
    </section>
  );
}
