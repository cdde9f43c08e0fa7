import { Trans } from 'react-i18next';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { useT } from '../../../lib/i18n/i18n';
import { creditedText } from '../deposit-rules';
import { formatDateTime, solDecimal } from '../wallet-format';
import { messageText } from '../wallet-messages';
import { DepositQr } from './deposit-qr';
import type { DepositState } from './use-deposit';
import '../wallet.css';

/**
 * docs/product/states.md#market-and-account-states, docs/product/input-rules.md#market-and-account-input: send the exact amount from the given address and wait for the blockchain's
 * confirmation, then Verify (the server's watcher may credit first: the dialog then closes by
 * itself). On localnet the demo wallet pays the request in one click. Addresses stay left to
 * right in every language; the amount to copy is the request's own text (what a wallet takes).
 */
export function PaymentInstructions({ deposit }: { deposit: DepositState }) {
  const { t, locale } = useT('wallet');
  const { request, error, notice, busy, config } = deposit;
  if (!request) return null;
  const demoWalletUrl = config.data?.demoWalletUrl ?? null;

  return (
    <div className="stack deposit-instructions" data-testid="deposit-instructions">
      <h3 className="deposit__title">{t('deposit.instructions.title')}</h3>
      <p className="small">
        <Trans t={t} i18nKey="deposit.instructions.body" components={{ strong: <strong /> }} />
      </p>
      <div className="deposit-instructions__qr">
        <DepositQr key={request.transferUrl} url={request.transferUrl} />
      </div>
      <dl className="deposit-instructions__facts">
        <div>
          <dt>{t('deposit.instructions.amount')}</dt>
          <dd>
            <code data-testid="deposit-amount">{solDecimal(request.solAmount, locale)} SOL</code>
            <CopyButton text={request.solAmount} label={t('deposit.instructions.copyAmount')} />
          </dd>
        </div>
        <div>
          <dt>{t('deposit.instructions.address')}</dt>
          <dd>
            <code className="deposit__mono" dir="ltr" data-testid="deposit-address">
              {request.depositAddress}
            </code>
            <CopyButton
              text={request.depositAddress}
              label={t('deposit.instructions.copyAddress')}
            />
          </dd>
        </div>
        <div>
          <dt>{t('deposit.instructions.from')}</dt>
          <dd>
            <code className="deposit__mono" dir="ltr">
              {request.userAddress}
            </code>
          </dd>
        </div>
        <div>
          <dt>{t('deposit.instructions.receive')}</dt>
          <dd data-testid="deposit-credit">{creditedText(request.sslCreditMicro, locale)} SSL</dd>
        </div>
      </dl>
      <p className="small muted">
        {t('deposit.instructions.expires', { date: formatDateTime(request.expiresAt, locale) })}{' '}
        <CopyButton
          text={request.transferUrl}
          label={t('deposit.instructions.copyLink')}
          variant="ghost"
        />
      </p>
      {notice && (
        <Banner tone="info" data-testid="deposit-notice">
          {messageText(t, notice)}
        </Banner>
      )}
      {error && (
        <Banner tone="error" data-testid="deposit-error">
          {messageText(t, error)}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={deposit.backToEdit}>
          {t('deposit.instructions.backToEdit')}
        </Button>
        {demoWalletUrl && (
          <Button variant="secondary" disabled={busy !== null} onClick={deposit.payDemo}>
            {busy === 'demo' ? t('deposit.instructions.paying') : t('deposit.instructions.payDemo')}
          </Button>
        )}
        <Button variant="primary" disabled={busy !== null} onClick={deposit.verify}>
          {busy === 'verify'
            ? t('deposit.instructions.verifying')
            : t('deposit.instructions.verify')}
        </Button>
      </div>
    </div>
  );
}
