import type { SubscriptionQrCodesResponse } from '@scn/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { OpenInApp } from '../../../components/open-in-app/open-in-app';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { downloadSubscription } from '../api/download-subscription';
import { getSubscriptionQrCodes } from '../api/get-subscription-qr-codes';
import { CONTENT_ERRORS, parseSubscriptionContent } from '../subscription-content';
import type { SubscriptionView } from '../store';
import { QrImage } from './qr-image';
import '../subscriptions.css';

/** docs/product/states.md#market-and-account-states: the loading state shows at least about 2 s on opening, 500 ms on a retry. */
export const QR_MIN_LOADING_MS = 2_000;
export const QR_RETRY_LOADING_MS = 500;

/** docs/product/messages.md#market-and-account-messages QR modal errors. */
export const QR_ERRORS = {
  missing: 'Subscription data is missing. Please try again or contact support.',
  noId: 'Could not determine a valid subscription ID. Please try again.',
  noServers: 'Could not find server data for this subscription. Please try refreshing the page.',
} as const;

type QrErrorKey = keyof typeof QR_ERRORS | keyof typeof CONTENT_ERRORS | 'generic';

/** A failure the modal names in the reader's language (the English text stays the message). */
class QrLoadError extends Error {
  constructor(readonly key: QrErrorKey) {
    super(
      key === 'generic'
        ? 'No valid QR code data available'
        : { ...QR_ERRORS, ...CONTENT_ERRORS }[key],
    );
  }
}

function contentErrorKey(message: string): QrErrorKey {
  const found = (Object.keys(CONTENT_ERRORS) as (keyof typeof CONTENT_ERRORS)[]).find(
    (key) => CONTENT_ERRORS[key] === message,
  );
  return found ?? 'generic';
}

/** One step of the modal: a server of the subscription and its connection string. */
export interface QrItem {
  id: string;
  name: string;
  vlessString: string;
  qrCode: string | null;
  qrTooComplex: boolean;
}

interface Loaded {
  items: QrItem[];
  groupQrCode: string | null;
  groupQrTooComplex: boolean;
}

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * The steps of the modal. The server's QR codes come first; without them (the call failed) the
 * codes are drawn from the list's connection strings; a subscription whose list entry holds no
 * string at all is read from its raw file (docs/product/input-rules.md#dashboard-input decoding rules and errors).
 */
async function loadItems(
  ownerUuid: string,
  subscription: SubscriptionView,
  signal: AbortSignal,
): Promise<Loaded> {
  let codes: SubscriptionQrCodesResponse | null = null;
  try {
    codes = await getSubscriptionQrCodes(ownerUuid, subscription.id, signal);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
  }
  const fromServer = (codes?.serverQrCodes ?? []).filter((code) => code.vlessString);
  let items: QrItem[] = fromServer.map((code) => ({
    id: code.id,
    name: code.name,
    vlessString: code.vlessString,
    qrCode: code.qrCode,
    qrTooComplex: code.qrTooComplex,
  }));
  if (items.length === 0) {
    items = subscription.servers
      .filter((server) => server.vlessString)
      .map((server) => ({
        id: server.id,
        name: server.name,
        vlessString: server.vlessString,
        qrCode: null,
        qrTooComplex: false,
      }));
  }
  if (items.length === 0 && subscription.servers.length > 0) {
    const parsed = parseSubscriptionContent(
      await downloadSubscription(ownerUuid, subscription.rawFileName, signal),
    );
    if (!parsed.ok) throw new QrLoadError(contentErrorKey(parsed.error));
    items = parsed.links.map((link, index) => ({
      id: subscription.servers[index]?.id ?? `link-${index}`,
      name: subscription.servers[index]?.name ?? '',
      vlessString: link,
      qrCode: null,
      qrTooComplex: false,
    }));
  }
  if (items.length === 0) throw new QrLoadError('noServers');
  return {
    items,
    groupQrCode: codes?.groupQrCode ?? null,
    groupQrTooComplex: codes?.groupQrTooComplex ?? false,
  };
}

export interface SubscriptionQrDialogProps {
  ownerUuid: string;
  /** The subscription to show; null closes the modal. */
  subscription: SubscriptionView | null;
  /** Opened for an id that is not in the lists (docs/product/messages.md#market-and-account-messages 'Subscription data is missing'). */
  missing?: boolean;
  onClose: () => void;
}

/** docs/product/screens.md#the-shell-and-the-market-screens modal 3 "Subscription QR Code". Closing leaves the client dashboard as it is. */
export function SubscriptionQrDialog({
  ownerUuid,
  subscription,
  missing = false,
  onClose,
}: SubscriptionQrDialogProps) {
  const { t } = useT('client');
  return (
    <Dialog
      open={subscription !== null || missing}
      onClose={onClose}
      title={t('qr.title')}
      size="md"
      data-testid="qr-dialog"
    >
      <QrBody ownerUuid={ownerUuid} subscription={subscription} />
    </Dialog>
  );
}

type Phase =
  { kind: 'loading' } | { kind: 'error'; key: QrErrorKey } | { kind: 'ready'; loaded: Loaded };

function QrBody({
  ownerUuid,
  subscription,
}: {
  ownerUuid: string;
  subscription: SubscriptionView | null;
}) {
  const { t, locale } = useT('client');
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [index, setIndex] = useState(0);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    controller.current = abort;
    const minimum = wait(attempt === 0 ? QR_MIN_LOADING_MS : QR_RETRY_LOADING_MS);
    const work: Promise<Loaded> = !subscription
      ? Promise.reject(new QrLoadError('missing'))
      : !subscription.id
        ? Promise.reject(new QrLoadError('noId'))
        : loadItems(ownerUuid, subscription, abort.signal);
    Promise.allSettled([work, minimum]).then(([result]) => {
      if (abort.signal.aborted) return;
      if (result.status === 'fulfilled') {
        setPhase({ kind: 'ready', loaded: result.value });
      } else {
        const reason: unknown = result.reason;
        setPhase({ kind: 'error', key: reason instanceof QrLoadError ? reason.key : 'generic' });
      }
    });
    return () => abort.abort();
  }, [ownerUuid, subscription, attempt]);

  const retry = useCallback(() => {
    controller.current?.abort();
    setPhase({ kind: 'loading' });
    setAttempt((value) => value + 1);
  }, []);

  if (phase.kind === 'loading') return <QrLoading />;
  if (phase.kind === 'error')
    return <QrError message={t(`qr.errors.${phase.key}`)} onRetry={retry} />;

  const { items, groupQrCode, groupQrTooComplex } = phase.loaded;
  const count = items.length;
  const current = Math.min(index, count - 1);
  const item = items[current];
  if (!item || !subscription) return null;
  // docs/product/screens.md#the-shell-and-the-market-screens: previous and next wrap around.
  const step = (delta: number) => setIndex((current + delta + count) % count);

  return (
    <div className="qr-dialog" data-testid="qr-ready">
      {count > 1 && (
        <p className="qr-dialog__group small" data-testid="qr-group-note">
          {t('qr.group', { count })}
        </p>
      )}
      <div className="qr-dialog__stage">
        {count > 1 && (
          <button
            type="button"
            className="qr-dialog__arrow"
            aria-label={t('qr.previous')}
            onClick={() => step(-1)}
            data-testid="qr-previous"
          >
            ‹
          </button>
        )}
        <figure className="qr-dialog__figure">
          <QrImage
            key={`${item.id}:${item.vlessString}`}
            qrCode={item.qrCode}
            tooComplex={item.qrTooComplex}
            text={item.vlessString}
            alt={t('qr.alt', { name: item.name || formatNumber(current + 1, locale) })}
            data-testid="qr-image"
          />
          <figcaption>
            <span className="qr-dialog__server" data-testid="qr-server-name">
              {item.name || t('qr.serverNumber', { number: formatNumber(current + 1, locale) })}
            </span>
            {count > 1 && (
              <span className="badge badge--info" data-testid="qr-position">
                {t('qr.position', {
                  current: formatNumber(current + 1, locale),
                  count: formatNumber(count, locale),
                })}
              </span>
            )}
          </figcaption>
        </figure>
        {count > 1 && (
          <button
            type="button"
            className="qr-dialog__arrow"
            aria-label={t('qr.next')}
            onClick={() => step(1)}
            data-testid="qr-next"
          >
            ›
          </button>
        )}
      </div>

      <div className="qr-dialog__copy">
        <label htmlFor="qr-connection" className="small muted">
          {t('qr.connection')}
        </label>
        <div className="qr-dialog__copy-row">
          <textarea
            id="qr-connection"
            className="input qr-dialog__connection"
            readOnly
            rows={3}
            value={item.vlessString}
            dir="ltr"
            data-testid="qr-connection"
          />
          <CopyButton
            text={item.vlessString}
            label={t('copy.copy')}
            copiedLabel={t('copy.copied')}
            data-testid="copy-connection"
          />
        </div>
      </div>

      <SubscriptionUrl
        url={subscription.subscriptionUrl}
        qrCode={groupQrCode}
        tooComplex={groupQrTooComplex}
      />

      <OpenInApp url={subscription.subscriptionUrl} name={subscription.name} />

      <section className="qr-dialog__howto" aria-labelledby="qr-howto-title">
        <h3 id="qr-howto-title">{t('qr.howto.title')}</h3>
        <ol>
          <li>{t('qr.howto.scan')}</li>
          <li>{t('qr.howto.copy')}</li>
          <li>{t('qr.howto.connect')}</li>
        </ol>
      </section>
    </div>
  );
}

function QrLoading() {
  const { t } = useT('client');
  return (
    <div className="qr-dialog__loading" role="status" aria-live="polite" data-testid="qr-loading">
      <span className="spinner" aria-hidden="true" />
      <span>{t('qr.loading')}</span>
    </div>
  );
}

function QrError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useT('client');
  return (
    <div className="stack" data-testid="qr-error">
      <Banner tone="error">{message}</Banner>
      <div>
        <Button variant="secondary" onClick={onRetry}>
          {t('list.tryAgain')}
        </Button>
      </div>
    </div>
  );
}

/** The subscription URL (imports and updates every server), its copy button and its QR code. */
function SubscriptionUrl({
  url,
  qrCode,
  tooComplex,
}: {
  url: string;
  qrCode: Loaded['groupQrCode'];
  tooComplex: Loaded['groupQrTooComplex'];
}) {
  const { t } = useT('client');
  return (
    <div className="qr-dialog__copy">
      <span className="small muted">{t('qr.subscriptionUrl')}</span>
      <div className="qr-dialog__copy-row">
        <code className="qr-dialog__url" data-testid="subscription-url" dir="ltr">
          {url}
        </code>
        <CopyButton
          text={url}
          label={t('copy.copyUrl')}
          copiedLabel={t('copy.copied')}
          data-testid="copy-subscription-url"
        />
      </div>
      <details className="qr-dialog__group-qr">
        <summary>{t('qr.urlQr')}</summary>
        <QrImage
          key={url}
          qrCode={qrCode}
          tooComplex={tooComplex}
          text={url}
          alt={t('qr.urlQr')}
          data-testid="group-qr-image"
        />
      </details>
    </div>
  );
}
