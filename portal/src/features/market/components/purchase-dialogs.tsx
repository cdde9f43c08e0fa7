import type { SubscriptionCreationResponse } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { useRef, useState } from 'react';
import { OpenInApp } from '../../../components/open-in-app/open-in-app';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { createSubscription } from '../api/create-subscription';
import { getWalletBalance } from '../api/get-wallet-balance';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { insufficientBalanceMessage, totalPriceMicro } from '../market-rules';
import type { SelectedServer } from '../store';
import { CountryFlag } from '../../../components/ui/country-flag';
import '../market.css';
import './purchase-dialogs.css';

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

/**
 * docs/product/screens.md#the-shell-and-the-market-screens "Purchase modals" 1 and 2 and docs/product/states.md#market-and-account-states "Purchase": Create Network Subscription, then
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
  const { t, locale } = useT('client');
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

  // Modal 1 -> modal 2: read the balance first (docs/product/messages.md#market-and-account-messages: a failed read counts as 0).
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
      setPaymentError(
        error instanceof Error && error.message ? error.message : t('purchase.createFallback'),
      );
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

  const shortMessage =
    payment && insufficientBalanceMessage(payment.priceMicro, payment.balanceMicro)
      ? t('purchase.short', {
          price: formatMicroSsl(payment.priceMicro, locale, { decimals: 'cents' }),
          balance: formatMicroSsl(payment.balanceMicro, locale, { decimals: 'cents' }),
        })
      : null;

  return (
    <>
      <Dialog
        open={open}
        onClose={close}
        title={t('purchase.title')}
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
        title={t('purchase.payment.title')}
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

/**
 * After success (docs/product/screens.md#the-shell-and-the-market-screens modal 1): the message, the group QR, per-server QRs, and on a phone
 * what it needs to connect: a copy button for each link and the subscription URL, the apps'
 * one-tap imports and the subscription page. Then View Subscription.
 */
function PurchaseResult({
  result,
  onView,
}: {
  result: SubscriptionCreationResponse;
  onView: () => void;
}) {
  const { t, locale } = useT('client');
  const copyLabels = { label: t('copy.copy'), copiedLabel: t('copy.copied') };
  return (
    <div className="purchase-result" data-testid="purchase-result">
      <Banner tone="success" data-testid="purchase-message">
        {t('purchase.result.created', { count: result.serverCount })}
      </Banner>
      <p className="small muted" data-testid="purchase-charged">
        {t('purchase.result.charged', {
          charged: formatMicroSsl(result.chargedMicro, locale, { decimals: 'cents' }),
          balance: formatMicroSsl(result.balanceMicro, locale, { decimals: 'cents' }),
        })}
      </p>
      <figure className="purchase-qr purchase-qr--group">
        {result.groupQrCode ? (
          <img
            src={result.groupQrCode}
            width={180}
            height={180}
            alt={t('purchase.result.groupAlt', { count: result.serverCount })}
            data-testid="group-qr"
          />
        ) : (
          <p className="purchase-qr__fallback">{t('qr.image.tooComplex')}</p>
        )}
        <figcaption>{t('qr.group', { count: result.serverCount })}</figcaption>
      </figure>
      <div className="purchase-url">
        <span className="small muted">{t('qr.subscriptionUrl')}</span>
        <div className="purchase-url__row">
          <code className="purchase-url__text" dir="ltr" data-testid="purchase-subscription-url">
            {result.subscriptionUrl}
          </code>
          <CopyButton
            text={result.subscriptionUrl}
            label={t('copy.copyUrl')}
            copiedLabel={t('copy.copied')}
            data-testid="copy-subscription-url"
          />
        </div>
      </div>
      <OpenInApp url={result.subscriptionUrl} name={result.details.name} />
      <ul className="purchase-qr-list" data-testid="server-qr-codes">
        {result.serverQrCodes.map((server) => (
          <li key={server.id} className="purchase-qr" data-testid="server-qr">
            {server.qrCode ? (
              <img
                src={server.qrCode}
                width={180}
                height={180}
                alt={t('qr.alt', { name: server.name })}
              />
            ) : (
              <p className="purchase-qr__fallback">{t('qr.image.tooComplex')}</p>
            )}
            <div className="purchase-qr__meta">
              <strong>{server.name}</strong>
              <span className="small muted">
                {t('purchase.result.serverId')} <code dir="ltr">{server.id}</code>
              </span>
              <span className="small muted">
                UUID: <code dir="ltr">{server.uuid}</code>
              </span>
              <CopyButton
                text={server.vlessString}
                {...copyLabels}
                label={t('copy.copyLink')}
                data-testid="copy-server-link"
              />
            </div>
          </li>
        ))}
      </ul>
      <div className="dialog__actions">
        <Button variant="primary" onClick={onView} data-autofocus>
          {t('purchase.result.view')}
        </Button>
      </div>
    </div>
  );
}

/** docs/product/screens.md#the-shell-and-the-market-screens modal 1 before paying: the chosen servers, their total, Cancel and Create. */
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
  const { t, locale } = useT('client');
  const blocked = servers.filter((server) => server.reachability === 'blocked');
  return (
    <>
      <p>{t('purchase.summary.intro', { count: servers.length })}</p>
      {blocked.length > 0 && (
        // Before paying, never after: the server stays buyable, the reader decides.
        <Banner tone="warning" data-testid="purchase-blocked-warning">
          {t('purchase.summary.blockedWarning', { count: blocked.length })}
        </Banner>
      )}
      <ul className="purchase-servers" data-testid="purchase-servers">
        {servers.map((server) => (
          <li key={server.id} data-reachability={server.reachability}>
            <span className="purchase-servers__name">
              <CountryFlag code={server.countryCode} />
              {server.name}
              {server.reachability === 'blocked' && (
                <span className="badge badge--danger" data-testid="purchase-server-blocked">
                  {t('purchase.summary.blocked')}
                </span>
              )}
            </span>
            <span className="muted">
              {BigInt(server.priceMicro) === 0n
                ? t('purchase.free')
                : t('purchase.perMonth', { amount: formatMicroSsl(server.priceMicro, locale) })}
            </span>
          </li>
        ))}
      </ul>
      <p className="purchase-total">
        <span>{t('purchase.summary.total')}</span>
        <strong data-testid="purchase-total">
          {priceMicro === 0n
            ? t('purchase.free')
            : t('purchase.perMonth', {
                amount: formatMicroSsl(priceMicro, locale, { decimals: 'cents' }),
              })}
        </strong>
      </p>
      <p className="small muted">{t('purchase.summary.takenOnConfirm')}</p>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel} disabled={creating} data-autofocus>
          {t('purchase.cancel')}
        </Button>
        <Button variant="primary" onClick={onCreate} disabled={creating || servers.length === 0}>
          {creating ? t('purchase.summary.creating') : t('purchase.summary.create')}
        </Button>
      </div>
    </>
  );
}

/** docs/product/screens.md#the-shell-and-the-market-screens modal 2: what is bought, the balance (red when short), the error, Confirm. */
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
  const { t, locale } = useT('client');
  return (
    <>
      <dl className="payment-summary">
        <div>
          <dt>{t('purchase.payment.servers')}</dt>
          <dd data-testid="payment-server-count">
            {formatNumber(payment.serverIds.length, locale)}
          </dd>
        </div>
        <div>
          <dt>{t('purchase.payment.price')}</dt>
          <dd data-testid="payment-price">
            {formatMicroSsl(payment.priceMicro, locale, { decimals: 'cents' })}
          </dd>
        </div>
        <div>
          <dt>{t('purchase.payment.balance')}</dt>
          <dd
            className={`market-tone market-tone--${short ? 'danger' : 'success'}`}
            data-testid="payment-balance"
          >
            {formatMicroSsl(payment.balanceMicro, locale, { decimals: 'cents' })}
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
          {t('purchase.cancel')}
        </Button>
        <Button variant="primary" onClick={onConfirm} disabled={paying || short} data-autofocus>
          {paying ? t('purchase.payment.processing') : t('purchase.payment.confirm')}
        </Button>
      </div>
    </>
  );
}
