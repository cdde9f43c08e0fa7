import { formatMicroSsl } from '../../../lib/money';
import {
  ECONOMICS,
  type Withdrawal,
  type WithdrawalQuote,
  type WithdrawalsResponse,
} from '@scn/proto';
import { type ReactNode, useState } from 'react';
import { Trans } from 'react-i18next';
import type { Snapshot } from 'valtio';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { postWithdraw, refreshWithdrawals } from '../api/withdrawals';
import { refreshWallet } from '../api/get-wallet';
import { percent, solAmount, wholeNumber } from '../wallet-format';
import {
  type WalletMessage,
  messageText,
  withdrawFailure,
  withdrawMessage,
} from '../wallet-messages';
import { type WithdrawForm, withdrawFormProblem, withdrawPreview } from '../withdraw-rules';
import '../wallet.css';

export interface WithdrawDialogProps {
  open: boolean;
  onClose: () => void;
  ownerUuid: string;
  /** The node wallet's balance minus its frozen rewards (micro-SSL). */
  availableMicro: string;
  withdrawals: Snapshot<WithdrawalsResponse>;
}

/** docs/product/roles.md#who-may-use-the-dashboards: the protocol fee taken from every withdrawal, one figure for the whole product. */
const FEE_PERCENT = ECONOMICS.withdrawalProtocolFeePercent;

/**
 * docs/product/screens.md#the-shell-and-the-market-screens Withdraw modal, docs/product/input-rules.md#market-and-account-input rules, docs/product/roles.md#who-may-use-the-dashboards (25% protocol fee): the amount and the
 * Solana address, then a confirmation that states the fee and the net received,
 * computed as the server computes them, before anything is sent; then the server's answer
 * (docs/product/messages.md#dashboard-messages "Successfully withdrew {amount} SSL to {address}").
 */
export function WithdrawDialog(props: WithdrawDialogProps) {
  const { t } = useT('wallet');
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      title={t('withdraw.title')}
      data-testid="withdraw-dialog"
    >
      <WithdrawBody {...props} />
    </Dialog>
  );
}

function WithdrawBody({ ownerUuid, availableMicro, withdrawals, onClose }: WithdrawDialogProps) {
  const { t, locale } = useT('wallet');
  const [form, setForm] = useState<WithdrawForm>({ amount: '', destinationAddress: '' });
  /** The confirmation shown, with its Idempotency-Key: a retried Confirm never withdraws twice. */
  const [confirming, setConfirming] = useState<{ key: string } | null>(null);
  const [done, setDone] = useState<Withdrawal | null>(null);
  const [error, setError] = useState<WalletMessage | null>(null);
  const { settings, leftTodayMicro } = withdrawals;
  const quote = withdrawPreview(form.amount, settings.sslPerSol);
  const limits = { availableMicro, leftTodayMicro, settings };

  const review = () => {
    const problem = withdrawFormProblem(form, limits, locale);
    setError(problem);
    if (!problem) setConfirming({ key: newIdempotencyKey() });
  };

  /** Sends the request; a refusal is thrown as its translated text (ConfirmDialog shows it). */
  const confirm = async (key: string) => {
    try {
      const answer = await postWithdraw(
        ownerUuid,
        { amount: form.amount.trim(), destinationAddress: form.destinationAddress.trim() },
        key,
      );
      setDone(answer.withdrawal);
      void refreshWallet('node', ownerUuid);
      void refreshWithdrawals(ownerUuid);
    } catch (caught) {
      throw new Error(messageText(t, withdrawFailure(caught)));
    }
  };

  if (done) return <WithdrawDone withdrawal={done} onClose={onClose} />;

  return (
    <>
      <form
        className="stack"
        data-testid="withdraw-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          review();
        }}
      >
        <p className="small muted">
          <Trans
            t={t}
            i18nKey="withdraw.form.summary"
            values={{
              available: formatMicroSsl(availableMicro, locale, { decimals: 'cents', unit: false }),
              minimum: formatMicroSsl(settings.minimumMicro, locale, {
                decimals: 'cents',
                unit: false,
              }),
              left: formatMicroSsl(leftTodayMicro, locale, { decimals: 'cents', unit: false }),
              fee: percent(FEE_PERCENT, locale),
            }}
            components={{ strong: <strong data-testid="withdraw-available" /> }}
          />
        </p>
        <label htmlFor="withdraw-amount">{t('withdraw.form.amount')}</label>
        <input
          id="withdraw-amount"
          className="input"
          type="number"
          inputMode="decimal"
          min="0"
          max={(BigInt(availableMicro) / 1_000_000n).toString()}
          step="0.01"
          value={form.amount}
          onChange={(event) => setForm({ ...form, amount: event.target.value })}
          placeholder="100"
        />
        {quote && (
          <p className="small" data-testid="withdraw-quote">
            <Trans
              t={t}
              i18nKey="withdraw.form.quote"
              values={{
                fee: formatMicroSsl(quote.feeMicro, locale, { decimals: 'cents', unit: false }),
                sol: solAmount(quote.lamports, locale),
              }}
              components={{ strong: <strong /> }}
            />
          </p>
        )}
        <label htmlFor="withdraw-address">{t('withdraw.form.address')}</label>
        <input
          id="withdraw-address"
          className="input deposit__mono"
          dir="ltr"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={form.destinationAddress}
          onChange={(event) => setForm({ ...form, destinationAddress: event.target.value })}
          placeholder={t('withdraw.form.addressPlaceholder')}
        />
        {error && (
          <Banner tone="error" data-testid="withdraw-error">
            {messageText(t, error)}
          </Banner>
        )}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={onClose}>
            {t('withdraw.form.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={form.amount.trim() === '' || form.destinationAddress.trim() === ''}
          >
            {t('withdraw.form.review')}
          </Button>
        </div>
      </form>
      {quote && (
        <ConfirmDialog
          open={confirming !== null}
          title={t('withdraw.confirm.title')}
          confirmLabel={t('withdraw.confirm.action')}
          busyLabel={t('withdraw.confirm.busy')}
          fallbackError={messageText(t, withdrawMessage('errorOccurred'))}
          onConfirm={() => (confirming ? confirm(confirming.key) : Promise.resolve())}
          onClose={() => setConfirming(null)}
          data-testid="withdraw-confirm-dialog"
        >
          <WithdrawReview quote={quote} address={form.destinationAddress.trim()} />
        </ConfirmDialog>
      )}
    </>
  );
}

function Fact(props: { label: string; testId: string; children: ReactNode }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>{props.children}</dd>
    </div>
  );
}

function WithdrawDone({ withdrawal, onClose }: { withdrawal: Withdrawal; onClose: () => void }) {
  const { t, locale } = useT('wallet');
  return (
    <div className="stack" data-testid="withdraw-done">
      <Banner tone="success" data-testid="withdraw-success">
        <Trans
          t={t}
          i18nKey="withdraw.done.success"
          values={{
            amount: formatMicroSsl(withdrawal.amountMicro, locale, { unit: false }),
            address: withdrawal.destinationAddress,
          }}
          components={{ address: <bdi className="deposit__mono" /> }}
        />
      </Banner>
      <p className="small muted">
        {t('withdraw.done.note', { sol: solAmount(withdrawal.lamports, locale) })}
      </p>
      <div className="dialog__actions">
        <Button variant="primary" onClick={onClose}>
          {t('withdraw.done.close')}
        </Button>
      </div>
    </div>
  );
}

/**
 * The confirmation's body, before anything moves: what is withdrawn, the 25% fee,
 * the net received in SSL and in SOL at the rate, and the address.
 */
function WithdrawReview({ quote, address }: { quote: WithdrawalQuote; address: string }) {
  const { t, locale } = useT('wallet');
  const fee = percent(FEE_PERCENT, locale);
  return (
    <div className="stack" data-testid="withdraw-review">
      <p data-testid="withdraw-consequence">
        {t('withdraw.confirm.consequence', {
          amount: formatMicroSsl(quote.amountMicro, locale, { decimals: 'cents', unit: false }),
          fee,
          feeAmount: formatMicroSsl(quote.feeMicro, locale, { decimals: 'cents', unit: false }),
          net: formatMicroSsl(quote.netMicro, locale, { decimals: 'cents', unit: false }),
          sol: solAmount(quote.lamports, locale),
        })}
      </p>
      <dl className="deposit-instructions__facts">
        <Fact label={t('withdraw.confirm.amount')} testId="withdraw-amount">
          {formatMicroSsl(quote.amountMicro, locale, { decimals: 'cents', unit: false })} SSL
        </Fact>
        <Fact label={t('withdraw.confirm.fee', { fee })} testId="withdraw-fee">
          {formatMicroSsl(quote.feeMicro, locale, { decimals: 'cents', unit: false })} SSL
        </Fact>
        <Fact label={t('withdraw.confirm.receive')} testId="withdraw-receive">
          {t('withdraw.confirm.receiveValue', {
            sol: solAmount(quote.lamports, locale),
            net: formatMicroSsl(quote.netMicro, locale, { decimals: 'cents', unit: false }),
          })}
        </Fact>
        <Fact label={t('withdraw.confirm.rate')} testId="withdraw-rate">
          {t('withdraw.confirm.rateValue', { rate: wholeNumber(quote.sslPerSol, locale) })}
        </Fact>
        <Fact label={t('withdraw.confirm.to')} testId="withdraw-to">
          <code className="deposit__mono" dir="ltr">
            {address}
          </code>
        </Fact>
      </dl>
    </div>
  );
}
