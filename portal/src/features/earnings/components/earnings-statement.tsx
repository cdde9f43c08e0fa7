import { type Earnings, REWARDS_MESSAGES } from '@scn/proto';
import type { Snapshot } from 'valtio';
import { Banner } from '../../../components/ui/banner';
import { useT } from '../../../lib/i18n/i18n';
import { periodLabel } from '../earnings-periods';
import { EarningsTotals } from './earnings-totals';
import { ServerStatementTable } from './server-statement';
import { StakingStatementView } from './staking-statement';

/**
 * The dry run's note in the reader's language: the server sends one of three sentences of the
 * contract (REWARDS_MESSAGES), matched here as constants, not read as English; another note is
 * shown as it came.
 */
const NOTES = ['dryRun', 'pending', 'notRun'] as const;
function noteKey(note: string | null): (typeof NOTES)[number] | null {
  return NOTES.find((key) => REWARDS_MESSAGES[key] === note) ?? null;
}

/** One month: whether it is final, the totals, each server's statement, staking and the pool. */
export function EarningsStatement({ earnings }: { earnings: Snapshot<Earnings> }) {
  const { t, locale } = useT('earn');
  const dryRun = earnings.kind === 'dry_run';
  const month = periodLabel(earnings.period, locale);
  if (earnings.servers.length === 0 && earnings.staking === null) {
    return (
      <div className="earnings-empty" data-testid="earnings-empty">
        <h3>{t('earnings.empty.title')}</h3>
        <p className="muted">{t('earnings.empty.body', { month })}</p>
      </div>
    );
  }
  return (
    <div className="stack" data-testid="earnings-statement" data-kind={earnings.kind}>
      {dryRun ? (
        <Banner tone="warning" data-testid="earnings-dry-run">
          <strong>{t('earnings.dryRun')}</strong>{' '}
          {noteKey(earnings.note)
            ? t(`earnings.note.${noteKey(earnings.note)!}`)
            : (earnings.note ?? '')}
        </Banner>
      ) : (
        <p className="small muted" data-testid="earnings-final">
          {t('earnings.final', { month })}
        </p>
      )}
      <EarningsTotals totals={earnings.totals} />
      {earnings.servers.map((statement) => (
        <ServerStatementTable key={statement.serverId} statement={statement} />
      ))}
      {earnings.staking && <StakingStatementView staking={earnings.staking} />}
      <p className="small muted" data-testid="earnings-pool">
        {earnings.pool.explanation}
      </p>
    </div>
  );
}
