import type { Earnings } from '@scn/proto';
import type { Snapshot } from 'valtio';
import { Banner } from '../../../components/ui/banner';
import { periodLabel } from '../earnings-periods';
import { EarningsTotals } from './earnings-totals';
import { ServerStatementTable } from './server-statement';
import { StakingStatementView } from './staking-statement';

/** One month: whether it is final, the totals, each server's statement, staking and the pool. */
export function EarningsStatement({ earnings }: { earnings: Snapshot<Earnings> }) {
  const dryRun = earnings.kind === 'dry_run';
  if (earnings.servers.length === 0 && earnings.staking === null) {
    return (
      <div className="earnings-empty" data-testid="earnings-empty">
        <h3>No earnings yet</h3>
        <p className="muted">
          {periodLabel(earnings.period)} has no statement: a server earns once it has reported for
          part of a month, and a stake once it has been held through a whole month.
        </p>
      </div>
    );
  }
  return (
    <div className="stack" data-testid="earnings-statement" data-kind={earnings.kind}>
      {dryRun ? (
        <Banner tone="warning" data-testid="earnings-dry-run">
          <strong>So far, not final.</strong> {earnings.note ?? ''}
        </Banner>
      ) : (
        <p className="small muted" data-testid="earnings-final">
          The statement of {periodLabel(earnings.period)}, written when the month ended.
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
