import { PRICING, type WalletData } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { Trans } from 'react-i18next';
import { useT } from '../../../lib/i18n/i18n';
import type { WalletType } from '../api/get-wallet';

import { formatDateTime, sslUsdPrice, usdAmount } from '../wallet-format';
import '../wallet.css';

/**
 * The wallet's Overview tab: the balance with its USD equivalent (docs/product/constants.md#market-prices-and-limits: 1 SSL = $0.035),
 * and for node wallets the frozen operator rewards and what may be withdrawn.
 */
export function WalletOverview({ type, data }: { type: WalletType; data: WalletData }) {
  const { t, locale } = useT('wallet');
  return (
    <div className="wallet-overview" data-testid="wallet-overview">
      <div className="wallet-overview__balance">
        <p className="wallet-overview__label">{t('overview.balance')}</p>
        <p className="wallet-overview__amount">
          <span data-testid="wallet-balance">
            {formatMicroSsl(data.balanceMicro, locale, { decimals: 'cents', unit: false })}
          </span>{' '}
          <span className="wallet-overview__unit">SSL</span>
        </p>
        <p className="wallet-overview__usd" data-testid="wallet-usd">
          <Trans
            t={t}
            i18nKey="overview.usd"
            values={{ usd: usdAmount(data.balanceMicro, locale), price: sslUsdPrice(locale) }}
            components={{ note: <span className="muted small" /> }}
          />
        </p>
      </div>

      {type === 'node' && (
        <dl className="wallet-overview__figures">
          <div>
            <dt>{t('overview.frozen')}</dt>
            <dd data-testid="wallet-frozen">
              {formatMicroSsl(data.frozenAmountMicro, locale, { decimals: 'cents', unit: false })}{' '}
              SSL
            </dd>
          </div>
          <div>
            <dt>{t('overview.available')}</dt>
            <dd data-testid="wallet-available">
              {formatMicroSsl(data.availableMicro, locale, { decimals: 'cents', unit: false })} SSL
            </dd>
          </div>
        </dl>
      )}

      {type === 'node' && data.frozenAmounts.length > 0 && (
        <div className="wallet-overview__frozen">
          <p className="small muted">
            {t('overview.frozenNote', { days: PRICING.operatorRewardFrozenDays })}
          </p>
          <ul data-testid="wallet-frozen-list">
            {data.frozenAmounts.map((lot, index) => (
              <li key={`${lot.frozenUntil}-${index}`}>
                <Trans
                  t={t}
                  i18nKey="overview.frozenLot"
                  values={{
                    amount: `${formatMicroSsl(lot.amountMicro, locale, { decimals: 'cents', unit: false })} SSL`,
                    date: formatDateTime(lot.frozenUntil, locale),
                  }}
                  components={{ strong: <strong />, muted: <span className="muted" /> }}
                />
              </li>
            ))}
          </ul>
        </div>
      )}

      {/*
       * docs/product/roles.md#who-may-use-the-market-and-wallet: the address overview is hidden for the node wallet. It is the platform's
       * deposit address, not one of the client's: named so.
       */}
      {type === 'client' && data.walletAddress && (
        <p className="wallet-overview__address small" data-testid="wallet-deposit-address">
          <Trans
            t={t}
            i18nKey="overview.depositAddress"
            values={{ address: data.walletAddress }}
            components={{ code: <code data-testid="wallet-address" dir="ltr" /> }}
          />
        </p>
      )}

      <p className="small muted">
        {t('overview.updated', { date: formatDateTime(data.lastUpdated, locale) })}
      </p>
    </div>
  );
}
