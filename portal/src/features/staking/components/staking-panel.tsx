import { ECONOMICS } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { Suspense, useEffect, useId } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { onRealtime } from '../../../lib/realtime';
import { refreshStaking, useStaking } from '../api/get-staking';
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
 * The node dashboard's staking settings (docs/product/roles.md#who-may-use-the-dashboards, docs/product/constants.md#billing-and-the-economy): the stake with what is
 * unlocked and when the rest unlocks, stake and unstake, the automatic stake of each payout, and
 * halving protection per server. Every figure is the server's. Its words wait for the `earn`
 * catalogue here, so the rest of the page never does.
 */
export function StakingPanel(props: StakingPanelProps) {
  return (
    <Suspense fallback={<PanelLoading />}>
      <StakingPanelBody {...props} />
    </Suspense>
  );
}

function PanelLoading() {
  return (
    <section className="card staking-panel" aria-busy="true">
      <span className="spinner" aria-hidden="true" />
    </section>
  );
}

function StakingPanelBody({ ownerUuid, onMoved }: StakingPanelProps) {
  const { t, locale } = useT('earn');
  const staking = useStaking(ownerUuid);
  const titleId = useId();

  // A deposit (or a reward) changes what can be staked.
  useEffect(() => onRealtime('wallet-updated', () => void refreshStaking(ownerUuid)), [ownerUuid]);

  const data = staking.data;
  const ssl = (micro: string) => formatMicroSsl(micro, locale, { decimals: 'cents' });

  return (
    <section className="card staking-panel" aria-labelledby={titleId} data-testid="staking-panel">
      <header className="staking-panel__header">
        <h2 id={titleId}>{t('staking.title')}</h2>
        <p className="muted small">
          {t('staking.summary', {
            apy: ECONOMICS.stakingApyPercent,
            days: ECONOMICS.stakeLockDays,
          })}
        </p>
      </header>

      {staking.status === 'error' && !data ? (
        <div className="stack">
          <Banner tone="error" data-testid="staking-error">
            {staking.error}
          </Banner>
          <div>
            <Button variant="secondary" onClick={staking.reload}>
              {t('common.tryAgain')}
            </Button>
          </div>
        </div>
      ) : !data ? (
        <div className="staking-panel__loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('staking.loading')}</span>
        </div>
      ) : (
        <div className="stack">
          <dl className="staking-panel__figures">
            <div>
              <dt>{t('staking.figure.staked')}</dt>
              <dd data-testid="stake-balance">{ssl(data.stakeMicro)}</dd>
            </div>
            <div>
              <dt>{t('staking.figure.unlocked')}</dt>
              <dd data-testid="stake-unlocked">{ssl(data.unlockedMicro)}</dd>
            </div>
            <div>
              <dt>{t('staking.figure.available')}</dt>
              <dd data-testid="stake-available">{ssl(data.stakeableMicro)}</dd>
            </div>
            <div>
              <dt>{t('staking.figure.income')}</dt>
              <dd data-testid="stake-income">{ssl(data.monthlyIncomeMicro)}</dd>
            </div>
          </dl>

          {data.locks.length > 0 && (
            <div className="staking-panel__locks">
              <p className="small muted">{t('staking.locks.title')}</p>
              <ul data-testid="stake-locks">
                {data.locks.map((lock, index) => (
                  <li key={`${lock.unlocksAt}-${index}`}>
                    <strong>{ssl(lock.amountMicro)}</strong>{' '}
                    <span className="muted">
                      {t('staking.locks.on', {
                        date: formatDate(lock.unlocksAt, locale, {
                          dateStyle: 'medium',
                          timeStyle: 'short',
                          timeZone: 'UTC',
                        }),
                      })}
                    </span>
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
