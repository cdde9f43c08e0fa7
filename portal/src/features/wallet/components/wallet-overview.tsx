import { PRICING, SSL_USD_PRICE_TEXT } from '@scn/proto';
import type { WalletType } from '../api/get-wallet';
import type { WalletView } from '../store';
import { formatDateTime, sslAmount, usdAmount } from '../wallet-format';
import '../wallet.css';

/**
 * The wallet's Overview tab: the balance with its USD equivalent (spec 01 §9: 1 SSL = $0.035),
 * and for node wallets the frozen operator rewards and what may be withdrawn.
 */
export function WalletOverview({ type, data }: { type: WalletType; data: WalletView }) {
  return (
    <div className="wallet-overview" data-testid="wallet-overview">
      <div className="wallet-overview__balance">
        <p className="wallet-overview__label">Balance</p>
        <p className="wallet-overview__amount">
          <span data-testid="wallet-balance">{sslAmount(data.balanceMicro)}</span>{' '}
          <span className="wallet-overview__unit">SSL</span>
        </p>
        <p className="wallet-overview__usd" data-testid="wallet-usd">
          ≈ {usdAmount(data.balanceMicro)} USD
          <span className="muted small"> (1 SSL = {SSL_USD_PRICE_TEXT})</span>
        </p>
      </div>

      {type === 'node' && (
        <dl className="wallet-overview__figures">
          <div>
            <dt>Frozen</dt>
            <dd data-testid="wallet-frozen">{sslAmount(data.frozenAmountMicro)} SSL</dd>
          </div>
          <div>
            <dt>Available to withdraw</dt>
            <dd data-testid="wallet-available">{sslAmount(data.availableMicro)} SSL</dd>
          </div>
        </dl>
      )}

      {type === 'node' && data.frozenAmounts.length > 0 && (
        <div className="wallet-overview__frozen">
          <p className="small muted">
            Operator rewards stay frozen for {PRICING.operatorRewardFrozenDays} days before they can
            be withdrawn:
          </p>
          <ul data-testid="wallet-frozen-list">
            {data.frozenAmounts.map((lot, index) => (
              <li key={`${lot.frozenUntil}-${index}`}>
                <strong>{sslAmount(lot.amountMicro)} SSL</strong>{' '}
                <span className="muted">until {formatDateTime(lot.frozenUntil)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}

      {/* spec 01 §6: the wallet address overview is hidden for the node wallet. */}
      {type === 'client' && data.walletAddress && (
        <p className="wallet-overview__address small">
          Wallet address: <code data-testid="wallet-address">{data.walletAddress}</code>
        </p>
      )}

      <p className="small muted">Updated {formatDateTime(data.lastUpdated)}</p>
    </div>
  );
}
