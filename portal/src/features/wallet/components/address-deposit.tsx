import type { DepositCurrencyView, DepositTransferView } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { useT } from '../../../lib/i18n/i18n';
import type { Locale } from '../../../lib/i18n/locale';
import {
  addressTransferUrl,
  demoAmount,
  liveState,
  minimumText,
  rateText,
  transferAmount,
} from '../address-deposit-rules';
import { payWithDemoWallet } from '../api/solana';
import { useSolanaConfig } from '../api/solana';
import { solDecimal } from '../wallet-format';
import { type WalletMessage, depositFailure, messageText } from '../wallet-messages';
import { DepositQr } from './deposit-qr';
import type { AddressDepositState } from './use-address-deposit';
import '../wallet.css';

export interface AddressDepositProps {
  state: AddressDepositState;
  /** The Solana Pay flow (a request with a reference and an exact amount) for wallet apps. */
  onWalletApp: () => void;
  onBack: () => void;
  onDone: () => void;
}

/**
 * The account's own address with its QR, the currencies it accepts with their rate
 * and minimum, and a live state (waiting, confirming, credited) that follows the server's
 * transfers by realtime and a slow poll: nothing to press. On localnet the demo wallet pays it.
 */
export function AddressDeposit({ state, onWalletApp, onBack, onDone }: AddressDepositProps) {
  const { t, locale } = useT('wallet');
  const { address, transfers, known } = state;
  if (!address) return null;
  const live =
    known && transfers ? liveState(transfers.transfers, known) : { kind: 'waiting' as const };

  return (
    <div className="stack address-deposit" data-testid="address-deposit">
      <h3 className="deposit__title">{t('deposit.address.title')}</h3>
      <p className="small">{t('deposit.address.body')}</p>
      <div className="deposit-instructions__qr">
        {/* The bare address: what exchanges' withdrawal scanners read (a solana: URI they may not). */}
        <DepositQr key={address.address} url={address.address} />
      </div>
      <p className="address-deposit__address">
        <code className="deposit__mono" dir="ltr" data-testid="address-deposit-address">
          {address.address}
        </code>
        <CopyButton text={address.address} label={t('deposit.instructions.copyAddress')} />
      </p>
      <ul className="address-deposit__currencies" data-testid="address-deposit-currencies">
        {address.currencies.map((currency) => (
          <li key={currency.code} data-currency={currency.code}>
            <strong>{currency.code}</strong>{' '}
            <bdi dir="ltr" data-testid="address-deposit-rate">
              {rateText(currency.code, currency.sslPerUnitMicro, locale)}
            </bdi>
            <span className="small muted">
              {' · '}
              {t('deposit.address.minimum', { amount: minimumText(currency, locale) })}
            </span>
          </li>
        ))}
      </ul>
      <Banner tone="warning" data-testid="address-deposit-network">
        {t('deposit.address.network')}
      </Banner>
      <LiveStatus live={live} locale={locale} />
      <DemoWalletPay address={address.address} currencies={address.currencies} />
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onBack}>
          {t('deposit.back')}
        </Button>
        <Button variant="ghost" onClick={onWalletApp} data-testid="address-deposit-wallet-app">
          {t('deposit.address.walletApp')}
        </Button>
        {live.kind === 'credited' && (
          <Button variant="primary" onClick={onDone}>
            {t('deposit.address.done')}
          </Button>
        )}
      </div>
    </div>
  );
}

function LiveStatus({ live, locale }: { live: ReturnType<typeof liveState>; locale: Locale }) {
  const { t } = useT('wallet');
  const amount = (transfer: DepositTransferView) => transferAmount(transfer, locale);
  return (
    <div role="status" aria-live="polite" data-testid="address-deposit-live" data-state={live.kind}>
      {live.kind === 'waiting' && (
        <p className="address-deposit__waiting">
          <span className="spinner" aria-hidden="true" /> {t('deposit.address.live.waiting')}
        </p>
      )}
      {live.kind === 'confirming' && (
        <Banner tone="info">
          {t('deposit.address.live.confirming', { amount: amount(live.transfer) })}
        </Banner>
      )}
      {live.kind === 'credited' && (
        <Banner tone="success">
          {t('deposit.address.live.credited', {
            ssl: formatMicroSsl(live.transfer.creditMicro ?? '0', locale, { unit: false }),
            amount: amount(live.transfer),
          })}
        </Banner>
      )}
      {live.kind === 'pending' && (
        <Banner tone="warning">
          {t('deposit.address.live.pending', { amount: amount(live.transfer) })}
        </Banner>
      )}
      {live.kind === 'refused' && (
        <Banner tone="error">
          {t('deposit.address.live.refused', {
            reason: t(`deposit.history.refused.${live.transfer.refusedReason ?? 'unknown_mint'}`),
          })}
        </Banner>
      )}
    </div>
  );
}

/** localnet: the demo wallet sends SOL, USDC or USDT to the address, as an exchange would. */
function DemoWalletPay({
  address,
  currencies,
}: {
  address: string;
  currencies: readonly DepositCurrencyView[];
}) {
  const { t, locale } = useT('wallet');
  const demoWalletUrl = useSolanaConfig().data?.demoWalletUrl ?? null;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<WalletMessage | null>(null);
  if (!demoWalletUrl) return null;

  const pay = async (currency: DepositCurrencyView) => {
    setBusy(currency.code);
    setError(null);
    try {
      await payWithDemoWallet(
        demoWalletUrl,
        addressTransferUrl(address, demoAmount(currency), currency.mint),
      );
    } catch (failure) {
      setError(depositFailure(failure, 'verifyFailed'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack address-deposit__demo">
      <p className="small muted">{t('deposit.address.demo')}</p>
      <div className="address-deposit__demo-buttons">
        {currencies.map((currency) => (
          <Button
            key={currency.code}
            variant="secondary"
            size="sm"
            disabled={busy !== null}
            data-testid={`address-deposit-demo-${currency.code}`}
            onClick={() => void pay(currency)}
          >
            {t('deposit.address.demoPay', {
              amount: `${solDecimal(demoAmount(currency), locale)} ${currency.code}`,
            })}
          </Button>
        ))}
      </div>
      {error && (
        <Banner tone="error" data-testid="address-deposit-demo-error">
          {messageText(t, error)}
        </Banner>
      )}
    </div>
  );
}
