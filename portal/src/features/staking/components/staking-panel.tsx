import { ECONOMICS } from '@scn/proto';
import { useEffect, useId } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { onRealtime } from '../../../lib/realtime';
import { formatUnlock, sslAmount } from '../staking-format';
import { loadStaking, useStaking } from '../store';
import { AutoStakeForm } from './auto-stake-form';
import { HalvingTable } from './halving-table';
import { StakeForm } from './stake-form';
import '../staking.css';

export interface StakingPanelProps {
  ownerUuid: string;
  /** Money moved between the node wallet and the stake: the app refreshes the wallet. */
  onMoved: () => void;
}

/**
 * The node dashboard's staking settings (issue 18 §4, spec 02 §6, §9): the stake with what is
 * unlocked and when the rest unlocks, stake and unstake, the automatic stake of each payout, and
 * halving protection per server. Every figure is the server's.
 */
export function StakingPanel({ ownerUuid, onMoved }: StakingPanelProps) {
  const staking = useStaking();
  const titleId = useId();

  useEffect(() => {
    void loadStaking(ownerUuid);
  }, [ownerUuid]);

  // A deposit (or a reward) changes what can be staked.
  useEffect(() => onRealtime('wallet-updated', () => void loadStaking(ownerUuid)), [ownerUuid]);

  const data = staking.ownerUuid === ownerUuid ? staking.data : null;

  return (
    <section className="card staking-panel" aria-labelledby={titleId} data-testid="staking-panel">
      <header className="staking-panel__header">
        <h2 id={titleId}>Staking</h2>
        <p className="muted small">
          {ECONOMICS.stakingApyPercent}% a year from the reward pool. Each stake is locked for{' '}
          {ECONOMICS.stakeLockDays} days.
        </p>
      </header>

      {staking.status === 'error' && !data ? (
        <div className="stack">
          <Banner tone="error" data-testid="staking-error">
            {staking.error}
          </Banner>
          <div>
            <Button variant="secondary" onClick={() => void loadStaking(ownerUuid)}>
              Try Again
            </Button>
          </div>
        </div>
      ) : !data ? (
        <div className="staking-panel__loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>Loading staking...</span>
        </div>
      ) : (
        <div className="stack">
          <dl className="staking-panel__figures">
            <div>
              <dt>Staked</dt>
              <dd data-testid="stake-balance">{sslAmount(data.stakeMicro)} SSL</dd>
            </div>
            <div>
              <dt>Unlocked</dt>
              <dd data-testid="stake-unlocked">{sslAmount(data.unlockedMicro)} SSL</dd>
            </div>
            <div>
              <dt>Available to stake</dt>
              <dd data-testid="stake-available">{sslAmount(data.stakeableMicro)} SSL</dd>
            </div>
            <div>
              <dt>Income a month</dt>
              <dd data-testid="stake-income">{sslAmount(data.monthlyIncomeMicro)} SSL</dd>
            </div>
          </dl>

          {data.locks.length > 0 && (
            <div className="staking-panel__locks">
              <p className="small muted">Locked stakes unlock:</p>
              <ul data-testid="stake-locks">
                {data.locks.map((lock, index) => (
                  <li key={`${lock.unlocksAt}-${index}`}>
                    <strong>{sslAmount(lock.amountMicro)} SSL</strong>{' '}
                    <span className="muted">on {formatUnlock(lock.unlocksAt)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}

          <StakeForm ownerUuid={ownerUuid} onMoved={onMoved} />
          <AutoStakeForm
            key={data.autoStakePercent}
            ownerUuid={ownerUuid}
            percent={data.autoStakePercent}
          />
          <HalvingTable data={data} />
        </div>
      )}
    </section>
  );
}
