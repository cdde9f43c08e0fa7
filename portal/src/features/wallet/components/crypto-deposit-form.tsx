import { MIN_DEPOSIT_SOL } from '@scn/proto';
import { Trans } from 'react-i18next';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { canContinue, quotedSsl } from '../deposit-rules';
import { wholeNumber } from '../wallet-format';
import { depositMessage, messageText } from '../wallet-messages';
import type { DepositState } from './use-deposit';
import '../wallet.css';

/**
 * docs/product/states.md#market-and-account-states, docs/product/input-rules.md#market-and-account-input: the SOL amount (min 0.001, step 0.001) and the address the client sends from;
 * Continue is disabled until both are filled. The quote shown is the server's current rate.
 */
export function CryptoDepositForm({ deposit }: { deposit: DepositState }) {
  const { t, locale } = useT('wallet');
  const { config, form, error, busy } = deposit;

  if (config.status === 'error') {
    return (
      <div className="stack" data-testid="deposit-crypto">
        <Banner tone="error" data-testid="deposit-init-failed">
          {messageText(t, depositMessage('initFailed'))}
        </Banner>
        <div className="dialog__actions">
          <Button variant="secondary" onClick={deposit.backToMethod}>
            {t('deposit.back')}
          </Button>
          <Button variant="primary" onClick={deposit.retryConfig}>
            {t('deposit.tryAgain')}
          </Button>
        </div>
      </div>
    );
  }
  if (config.status !== 'ready' || !config.data) {
    return (
      <div className="wallet-panel__loading" role="status" data-testid="deposit-crypto">
        <span className="spinner" aria-hidden="true" />
        <span>{t('deposit.loading')}</span>
      </div>
    );
  }

  const rate = config.data.conversionRate;
  const preview = quotedSsl(form.solAmount, rate);
  return (
    <form
      className="stack"
      data-testid="deposit-crypto"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        deposit.submit();
      }}
    >
      <h3 className="deposit__title">{t('deposit.form.title')}</h3>
      <p className="small muted">
        {config.data.cluster === 'mainnet-beta' ? (
          t('deposit.form.rate', { rate: wholeNumber(rate, locale) })
        ) : (
          <Trans
            ns="wallet"
            i18nKey="deposit.form.rateCluster"
            values={{ rate: wholeNumber(rate, locale), cluster: config.data.cluster }}
            components={{ bdi: <bdi /> }}
          />
        )}
      </p>
      <label htmlFor="deposit-sol">{t('deposit.form.amount')}</label>
      <input
        id="deposit-sol"
        className="input"
        type="number"
        inputMode="decimal"
        min={MIN_DEPOSIT_SOL}
        step="0.001"
        value={form.solAmount}
        onChange={(event) => deposit.setField('solAmount', event.target.value)}
        placeholder="0.1"
      />
      {preview !== null && (
        <p className="small" data-testid="deposit-quote">
          <Trans
            t={t}
            i18nKey="deposit.form.quote"
            values={{ amount: wholeNumber(preview, locale) }}
            components={{ strong: <strong /> }}
          />
        </p>
      )}
      <label htmlFor="deposit-address">{t('deposit.form.address')}</label>
      <input
        id="deposit-address"
        className="input deposit__mono"
        dir="ltr"
        type="text"
        autoComplete="off"
        spellCheck={false}
        value={form.userAddress}
        onChange={(event) => deposit.setField('userAddress', event.target.value)}
        placeholder={t('deposit.form.addressPlaceholder')}
      />
      {config.data.demoWalletUrl && (
        <div>
          <Button variant="ghost" size="sm" onClick={deposit.fillDemoAddress}>
            {t('deposit.form.demoAddress')}
          </Button>
        </div>
      )}
      {error && (
        <Banner tone="error" data-testid="deposit-error">
          {messageText(t, error)}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={deposit.backToMethod}>
          {t('deposit.back')}
        </Button>
        <Button
          type="submit"
          variant="primary"
          disabled={!canContinue(form) || busy === 'continue'}
        >
          {busy === 'continue' ? t('deposit.form.preparing') : t('deposit.form.continue')}
        </Button>
      </div>
    </form>
  );
}
