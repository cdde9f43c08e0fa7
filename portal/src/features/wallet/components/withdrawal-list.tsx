import type { Withdrawal } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { Trans } from 'react-i18next';
import type { Snapshot } from 'valtio';
import { useT } from '../../../lib/i18n/i18n';
import { formatDateTime, solAmount, wholeNumber } from '../wallet-format';
import '../wallet.css';

/** The node wallet's withdrawals, newest first: status, amounts and the payout on the explorer. */
export function WithdrawalList({ withdrawals }: { withdrawals: Snapshot<Withdrawal[]> }) {
  const { t, locale } = useT('wallet');
  if (withdrawals.length === 0) return null;
  return (
    <section className="wallet-withdrawals" aria-label={t('withdraw.list.title')}>
      <h3 className="wallet-withdrawals__title">{t('withdraw.list.title')}</h3>
      <ul className="wallet-transactions" data-testid="withdrawals">
        {withdrawals.map((withdrawal) => (
          <li
            key={withdrawal.id}
            className="wallet-transaction"
            data-testid="withdrawal"
            data-status={withdrawal.status}
          >
            <div className="wallet-transaction__main">
              <span className="wallet-transaction__type">
                <span
                  className={`wallet-withdrawal__status wallet-withdrawal__status--${withdrawal.status}`}
                  data-testid="withdrawal-status"
                >
                  {t(`withdraw.list.status.${withdrawal.status}`)}
                </span>{' '}
                <Trans
                  t={t}
                  i18nKey="withdraw.list.payout"
                  values={{
                    sol: solAmount(withdrawal.lamports, locale),
                    address: withdrawal.destinationAddress,
                  }}
                  components={{ address: <code className="deposit__mono" dir="ltr" /> }}
                />
              </span>
              <span className="small muted">
                {t('withdraw.list.meta', {
                  date: formatDateTime(withdrawal.createdAt, locale),
                  fee: formatMicroSsl(withdrawal.feeMicro, locale, {
                    decimals: 'cents',
                    unit: false,
                  }),
                  rate: wholeNumber(withdrawal.sslPerSol, locale),
                })}
              </span>
              {withdrawal.status === 'failed' && withdrawal.failureReason && (
                <span className="small" data-testid="withdrawal-failure">
                  {t('withdraw.list.failure', {
                    // The payout's failure as the chain or the server put it: data, as given.
                    reason: withdrawal.failureReason,
                    amount: formatMicroSsl(withdrawal.amountMicro, locale, {
                      decimals: 'cents',
                      unit: false,
                    }),
                  })}
                </span>
              )}
              {withdrawal.explorerUrl && (
                <a
                  className="wallet-transaction__link"
                  href={withdrawal.explorerUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="withdrawal-explorer"
                >
                  {t('withdraw.list.explorer')}
                </a>
              )}
            </div>
            <span className="wallet-transaction__amount wallet-amount--negative">
              {formatMicroSsl(`-${withdrawal.amountMicro}`, locale, {
                decimals: 'cents',
                unit: false,
              })}{' '}
              SSL
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
