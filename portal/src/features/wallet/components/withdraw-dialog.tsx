import {
  WITHDRAWAL_MESSAGES,
  type Withdrawal,
  type WithdrawalQuote,
  type WithdrawalsResponse,
} from '@scn/proto';
import { type ReactNode, useState } from 'react';
import type { Snapshot } from 'valtio';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { postWithdraw } from '../api/withdrawals';
import { loadWallet } from '../store';
import { loadWithdrawals } from '../withdrawals-store';
import {
  type WithdrawForm,
  solText,
  withdrawFormProblem,
  withdrawPreview,
} from '../withdraw-rules';
import { groupThousands, sslAmount } from '../wallet-format';
import '../wallet.css';

export interface WithdrawDialogProps {
  open: boolean;
  onClose: () => void;
  ownerUuid: string;
  /** The node wallet's balance minus its frozen rewards (micro-SSL). */
  availableMicro: string;
  withdrawals: Snapshot<WithdrawalsResponse>;
}

/**
 * spec 01 §2 Withdraw modal, spec 01 §5 rules, spec 02 §6 (25% protocol fee): the amount and the
 * Solana address, then a review of the fee and the SOL received at the quoted rate, then the
 * server's answer (spec 02 §8 "Successfully withdrew {amount} SSL to {address}").
 */
export function WithdrawDialog(props: WithdrawDialogProps) {
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      title="Withdraw SSL"
      data-testid="withdraw-dialog"
    >
      <WithdrawBody {...props} />
    </Dialog>
  );
}

type Step =
  | { name: 'form' }
  | { name: 'review'; key: string }
  | { name: 'done'; message: string; withdrawal: Withdrawal };

function WithdrawBody({ ownerUuid, availableMicro, withdrawals, onClose }: WithdrawDialogProps) {
  const [form, setForm] = useState<WithdrawForm>({ amount: '', destinationAddress: '' });
  const [step, setStep] = useState<Step>({ name: 'form' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { settings, leftTodayMicro } = withdrawals;
  const quote = withdrawPreview(form.amount, settings.sslPerSol);
  const limits = { availableMicro, leftTodayMicro, settings };

  const review = () => {
    const problem = withdrawFormProblem(form, limits);
    setError(problem);
    // One key per reviewed request: a retried Confirm never withdraws twice.
    if (!problem) setStep({ name: 'review', key: newIdempotencyKey() });
  };

  const confirm = async (key: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await postWithdraw(
        ownerUuid,
        { amount: form.amount.trim(), destinationAddress: form.destinationAddress.trim() },
        key,
      );
      setStep({ name: 'done', message: answer.message, withdrawal: answer.withdrawal });
      void loadWallet('node', ownerUuid);
      void loadWithdrawals(ownerUuid);
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.status !== 0
          ? caught.message
          : WITHDRAWAL_MESSAGES.errorOccurred,
      );
    } finally {
      setBusy(false);
    }
  };

  if (step.name === 'done') {
    return (
      <WithdrawDone message={step.message} lamports={step.withdrawal.lamports} onClose={onClose} />
    );
  }
  if (step.name === 'review' && quote) {
    return (
      <WithdrawReview
        quote={quote}
        feePercent={settings.feePercent}
        address={form.destinationAddress.trim()}
        error={error}
        busy={busy}
        onBack={() => setStep({ name: 'form' })}
        onConfirm={() => void confirm(step.key)}
      />
    );
  }

  return (
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
        Available: <strong data-testid="withdraw-available">{sslAmount(availableMicro)} SSL</strong>{' '}
        (balance minus frozen rewards). Minimum {sslAmount(settings.minimumMicro)} SSL; up to{' '}
        {sslAmount(leftTodayMicro)} SSL more today. A {settings.feePercent}% protocol fee is taken;
        the rest is paid in SOL.
      </p>
      <label htmlFor="withdraw-amount">Amount (SSL)</label>
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
          Fee {sslAmount(quote.feeMicro)} SSL · you receive{' '}
          <strong>{solText(quote.lamports)} SOL</strong>
        </p>
      )}
      <label htmlFor="withdraw-address">Solana address to receive SOL</label>
      <input
        id="withdraw-address"
        className="input deposit__mono"
        type="text"
        autoComplete="off"
        spellCheck={false}
        value={form.destinationAddress}
        onChange={(event) => setForm({ ...form, destinationAddress: event.target.value })}
        placeholder="Your wallet's address"
      />
      {error && (
        <Banner tone="error" data-testid="withdraw-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="primary"
          disabled={form.amount.trim() === '' || form.destinationAddress.trim() === ''}
        >
          Review withdrawal
        </Button>
      </div>
    </form>
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

function WithdrawDone(props: { message: string; lamports: string; onClose: () => void }) {
  return (
    <div className="stack" data-testid="withdraw-done">
      <Banner tone="success" data-testid="withdraw-success">
        {props.message}
      </Banner>
      <p className="small muted">
        {solText(props.lamports)} SOL are on their way; the list under your wallet follows the
        payout until the chain confirms it.
      </p>
      <div className="dialog__actions">
        <Button variant="primary" onClick={props.onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

/** Before anything moves: the amount, the fee, the SOL received at the rate, the address. */
function WithdrawReview(props: {
  quote: WithdrawalQuote;
  feePercent: number;
  address: string;
  error: string | null;
  busy: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const { quote, busy } = props;
  return (
    <div className="stack" data-testid="withdraw-review">
      <dl className="deposit-instructions__facts">
        <Fact label="Amount" testId="withdraw-amount">
          {sslAmount(quote.amountMicro)} SSL
        </Fact>
        <Fact label={`Protocol fee (${props.feePercent}%)`} testId="withdraw-fee">
          {sslAmount(quote.feeMicro)} SSL
        </Fact>
        <Fact label="You receive" testId="withdraw-receive">
          {solText(quote.lamports)} SOL ({sslAmount(quote.netMicro)} SSL)
        </Fact>
        <Fact label="Rate" testId="withdraw-rate">
          1 SOL = {groupThousands(String(quote.sslPerSol))} SSL
        </Fact>
        <Fact label="To" testId="withdraw-to">
          <code className="deposit__mono">{props.address}</code>
        </Fact>
      </dl>
      {props.error && (
        <Banner tone="error" data-testid="withdraw-error">
          {props.error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" disabled={busy} onClick={props.onBack}>
          Back
        </Button>
        <Button variant="primary" disabled={busy} onClick={props.onConfirm}>
          {busy ? 'Withdrawing...' : 'Confirm withdrawal'}
        </Button>
      </div>
    </div>
  );
}
