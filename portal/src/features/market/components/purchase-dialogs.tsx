import { formatSsl, type SubscriptionCreationResponse } from '@scn/proto';
import { useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { createSubscription } from '../api/create-subscription';
import { getWalletBalance } from '../api/get-wallet-balance';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { insufficientBalanceMessage, priceLabel, totalPriceMicro } from '../market-rules';
import type { SelectedServer } from '../store';
import { CountryFlag } from './country-flag';
import '../market.css';

export interface PurchaseDialogsProps {
  open: boolean;
  clientUuid: string;
  servers: readonly SelectedServer[];
  onClose: () => void;
  /** The purchase went through: clear the selection, refresh the wallet and the list. */
  onPurchased: (result: SubscriptionCreationResponse) => void;
  onViewSubscription: (result: SubscriptionCreationResponse) => void;
}

interface PaymentStep {
  /** One per confirmation: a double click or a retry of it cannot pay twice. */
  idempotencyKey: string;
  balanceMicro: bigint;
  priceMicro: bigint;
  serverIds: string[];
}

/** spec 01 §8: the fallback when the failure says nothing. */
const CREATE_FALLBACK = 'Error creating subscription';

function sslAmount(micro: bigint | string): string {
  return `${formatSsl(micro)} SSL`;
}

/**
 * spec 01 §2 "Purchase modals" 1 and 2 and §4 "Purchase": Create Network Subscription, then
 * Payment Confirmation with the balance check, then one server call that prices, pays and
 * creates; the first modal then shows the result with its QR codes.
 */
export function PurchaseDialogs({
  open,
  clientUuid,
  servers,
  onClose,
  onPurchased,
  onViewSubscription,
}: PurchaseDialogsProps) {
  const [creating, setCreating] = useState(false);
  const [payment, setPayment] = useState<PaymentStep | null>(null);
  const [paying, setPaying] = useState(false);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [result, setResult] = useState<SubscriptionCreationResponse | null>(null);
  const paymentInFlight = useRef(false);
  /** The last purchase request that got no answer (it may have paid). */
  const unansweredAttempt = useRef<{ serverIds: string; idempotencyKey: string } | null>(null);

  const priceMicro = totalPriceMicro(servers);

  const reset = () => {
    setCreating(false);
    setPayment(null);
    setPaying(false);
    setPaymentError(null);
    setResult(null);
  };

  const close = () => {
    if (paying) return;
    reset();
    onClose();
  };

  // Modal 1 -> modal 2: read the balance first (spec 01 §8: a failed read counts as 0).
  const startPayment = async () => {
    if (creating || servers.length === 0) return;
    setCreating(true);
    setPaymentError(null);
    let balanceMicro = 0n;
    try {
      balanceMicro = await getWalletBalance(clientUuid);
    } catch (error) {
      console.warn('Failed to fetch wallet data', error);
    }
    const serverIds = servers.map((server) => server.id);
    // The same servers after an unanswered attempt: the same key, so it cannot pay twice.
    const unanswered = unansweredAttempt.current;
    const idempotencyKey =
      unanswered && unanswered.serverIds === serverIds.join(',')
        ? unanswered.idempotencyKey
        : newIdempotencyKey();
    setPayment({ idempotencyKey, balanceMicro, priceMicro, serverIds });
  };

  const cancelPayment = () => {
    if (paying) return;
    setPayment(null);
    setPaymentError(null);
    setCreating(false);
  };

  const confirmPayment = async () => {
    // A ref, not state: a double click lands before React re-renders the disabled button.
    if (!payment || paymentInFlight.current) return;
    if (insufficientBalanceMessage(payment.priceMicro, payment.balanceMicro)) return;
    paymentInFlight.current = true;
    setPaying(true);
    setPaymentError(null);
    try {
      const created = await createSubscription(
        clientUuid,
        payment.serverIds,
        payment.idempotencyKey,
      );
      unansweredAttempt.current = null;
      setResult(created);
      setPayment(null);
      setCreating(false);
      onPurchased(created);
    } catch (error) {
      setPaymentError(error instanceof Error && error.message ? error.message : CREATE_FALLBACK);
      // A refusal (4xx, e.g. 402) paid nothing and may mean the balance changed: show the
      // current one. A lost answer (no status, or a 5xx from a proxy that gave up) may have
      // paid: re-reading the balance would then block the retry that, with the same
      // Idempotency-Key, returns the first result without paying again.
      const answered = error instanceof ApiError && error.status > 0 && error.status < 500;
      unansweredAttempt.current = answered
        ? null
        : { serverIds: payment.serverIds.join(','), idempotencyKey: payment.idempotencyKey };
      if (answered) {
        try {
          const balanceMicro = await getWalletBalance(clientUuid);
          setPayment((step) => (step ? { ...step, balanceMicro } : step));
        } catch {
          // Keep the balance shown; the error above says what went wrong.
        }
      }
    } finally {
      paymentInFlight.current = false;
      setPaying(false);
    }
  };

  const shortMessage = payment
    ? insufficientBalanceMessage(payment.priceMicro, payment.balanceMicro)
    : null;

  return (
    <>
      <Dialog
        open={open}
        onClose={close}
        title="Create Network Subscription"
        size="md"
        closeOnBackdrop={!creating}
        data-testid="create-subscription-dialog"
      >
        {result ? (
          <PurchaseResult result={result} onView={() => onViewSubscription(result)} />
        ) : (
          <PurchaseSummary
            servers={servers}
            priceMicro={priceMicro}
            creating={creating}
            onCancel={close}
            onCreate={() => void startPayment()}
          />
        )}
      </Dialog>

      <Dialog
        open={open && payment !== null}
        onClose={cancelPayment}
        title="Payment Confirmation"
        size="sm"
        closeOnBackdrop={!paying}
        data-testid="payment-dialog"
      >
        {payment && (
          <PaymentConfirmation
            payment={payment}
            paying={paying}
            error={paymentError ?? shortMessage}
            short={shortMessage !== null}
            onCancel={cancelPayment}
            onConfirm={() => void confirmPayment()}
          />
        )}
      </Dialog>
    </>
  );
}

/** After success (spec 01 §2 modal 1): the message, the group QR, per-server QRs, View Subscription. */
function PurchaseResult({
  result,
  onView,
}: {
  result: SubscriptionCreationResponse;
  onView: () => void;
}) {
  return (
    <div className="purchase-result" data-testid="purchase-result">
      <Banner tone="success" data-testid="purchase-message">
        {result.message}
      </Banner>
      <p className="small muted" data-testid="purchase-charged">
        Charged {sslAmount(result.chargedMicro)} · Balance {sslAmount(result.balanceMicro)}
      </p>
      <figure className="purchase-qr purchase-qr--group">
        {result.groupQrCode ? (
          <img
            src={result.groupQrCode}
            width={180}
            height={180}
            alt={`QR code of the group subscription (${result.serverCount} servers)`}
            data-testid="group-qr"
          />
        ) : (
          <p className="purchase-qr__fallback">QR Code Too Complex</p>
        )}
        <figcaption>
          Group Subscription ({result.serverCount} Server{result.serverCount === 1 ? '' : 's'})
        </figcaption>
      </figure>
      <ul className="purchase-qr-list" data-testid="server-qr-codes">
        {result.serverQrCodes.map((server) => (
          <li key={server.id} className="purchase-qr" data-testid="server-qr">
            {server.qrCode ? (
              <img src={server.qrCode} width={180} height={180} alt={`QR code of ${server.name}`} />
            ) : (
              <p className="purchase-qr__fallback">QR Code Too Complex</p>
            )}
            <div className="purchase-qr__meta">
              <strong>{server.name}</strong>
              <span className="small muted">
                ID: <code>{server.id}</code>
              </span>
              <span className="small muted">
                UUID: <code>{server.uuid}</code>
              </span>
            </div>
          </li>
        ))}
      </ul>
      <div className="dialog__actions">
        <Button variant="primary" onClick={onView} data-autofocus>
          View Subscription
        </Button>
      </div>
    </div>
  );
}

/** spec 01 §2 modal 1 before paying: the chosen servers, their total, Cancel and Create. */
function PurchaseSummary({
  servers,
  priceMicro,
  creating,
  onCancel,
  onCreate,
}: {
  servers: readonly SelectedServer[];
  priceMicro: bigint;
  creating: boolean;
  onCancel: () => void;
  onCreate: () => void;
}) {
  return (
    <>
      <p>
        You are subscribing to {servers.length} server{servers.length === 1 ? '' : 's'}. Each one
        gets a connection string and a QR code for your VLESS app.
      </p>
      <ul className="purchase-servers" data-testid="purchase-servers">
        {servers.map((server) => (
          <li key={server.id}>
            <span className="purchase-servers__name">
              <CountryFlag code={server.countryCode} />
              {server.name}
            </span>
            <span className="muted">
              {priceLabel(server.priceMicro)}
              {server.priceMicro === '0' ? '' : ' / month'}
            </span>
          </li>
        ))}
      </ul>
      <p className="purchase-total">
        <span>Total</span>
        <strong data-testid="purchase-total">
          {priceMicro === 0n ? 'Free' : `${sslAmount(priceMicro)} / month`}
        </strong>
      </p>
      <p className="small muted">
        The price is taken from your SSL balance once you confirm the payment.
      </p>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel} disabled={creating} data-autofocus>
          Cancel
        </Button>
        <Button variant="primary" onClick={onCreate} disabled={creating || servers.length === 0}>
          {creating ? 'Creating...' : 'Create Subscription'}
        </Button>
      </div>
    </>
  );
}

/** spec 01 §2 modal 2: what is bought, the balance (red when short), the error, Confirm. */
function PaymentConfirmation({
  payment,
  paying,
  error,
  short,
  onCancel,
  onConfirm,
}: {
  payment: PaymentStep;
  paying: boolean;
  /** The failed purchase's message, else the short-balance message. */
  error: string | null;
  short: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <>
      <dl className="payment-summary">
        <div>
          <dt>Selected Servers</dt>
          <dd data-testid="payment-server-count">{payment.serverIds.length}</dd>
        </div>
        <div>
          <dt>Subscription Price</dt>
          <dd data-testid="payment-price">{sslAmount(payment.priceMicro)}</dd>
        </div>
        <div>
          <dt>Your Balance</dt>
          <dd
            className={`market-tone market-tone--${short ? 'danger' : 'success'}`}
            data-testid="payment-balance"
          >
            {sslAmount(payment.balanceMicro)}
          </dd>
        </div>
      </dl>
      {error && (
        <Banner tone="error" data-testid="payment-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel} disabled={paying}>
          Cancel
        </Button>
        <Button variant="primary" onClick={onConfirm} disabled={paying || short} data-autofocus>
          {paying ? 'Processing...' : 'Confirm Payment'}
        </Button>
      </div>
    </>
  );
}
