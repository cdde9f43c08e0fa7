import type { SubscriptionQrCodesResponse } from '@scn/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { downloadSubscription } from '../api/download-subscription';
import { getSubscriptionQrCodes } from '../api/get-subscription-qr-codes';
import { parseSubscriptionContent } from '../subscription-content';
import type { SubscriptionView } from '../store';
import { QrImage } from './qr-image';
import '../subscriptions.css';

/** spec 01 §4: the loading state shows at least about 2 s on opening, 500 ms on a retry. */
export const QR_MIN_LOADING_MS = 2_000;
export const QR_RETRY_LOADING_MS = 500;

/** spec 01 §8 QR modal errors. */
export const QR_ERRORS = {
  missing: 'Subscription data is missing. Please try again or contact support.',
  noId: 'Could not determine a valid subscription ID. Please try again.',
  noServers: 'Could not find server data for this subscription. Please try refreshing the page.',
} as const;

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
 * string at all is read from its raw file (spec 02 §5 decoding rules and errors).
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
    if (!parsed.ok) throw new Error(parsed.error);
    items = parsed.links.map((link, index) => ({
      id: subscription.servers[index]?.id ?? `link-${index}`,
      name: subscription.servers[index]?.name ?? `Server ${index + 1}`,
      vlessString: link,
      qrCode: null,
      qrTooComplex: false,
    }));
  }
  if (items.length === 0) throw new Error(QR_ERRORS.noServers);
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
  /** Opened for an id that is not in the lists (spec 01 §8 'Subscription data is missing'). */
  missing?: boolean;
  onClose: () => void;
}

/** spec 01 §2 modal 3 "Subscription QR Code". Closing leaves the client dashboard as it is. */
export function SubscriptionQrDialog({
  ownerUuid,
  subscription,
  missing = false,
  onClose,
}: SubscriptionQrDialogProps) {
  return (
    <Dialog
      open={subscription !== null || missing}
      onClose={onClose}
      title="Subscription QR Code"
      size="md"
      data-testid="qr-dialog"
    >
      <QrBody ownerUuid={ownerUuid} subscription={subscription} />
    </Dialog>
  );
}

type Phase =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; loaded: Loaded };

function QrBody({
  ownerUuid,
  subscription,
}: {
  ownerUuid: string;
  subscription: SubscriptionView | null;
}) {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [index, setIndex] = useState(0);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    controller.current = abort;
    const minimum = wait(attempt === 0 ? QR_MIN_LOADING_MS : QR_RETRY_LOADING_MS);
    const work: Promise<Loaded> = !subscription
      ? Promise.reject(new Error(QR_ERRORS.missing))
      : !subscription.id
        ? Promise.reject(new Error(QR_ERRORS.noId))
        : loadItems(ownerUuid, subscription, abort.signal);
    Promise.allSettled([work, minimum]).then(([result]) => {
      if (abort.signal.aborted) return;
      if (result.status === 'fulfilled') {
        setPhase({ kind: 'ready', loaded: result.value });
      } else {
        const reason: unknown = result.reason;
        setPhase({
          kind: 'error',
          message: reason instanceof Error ? reason.message : 'No valid QR code data available',
        });
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
  if (phase.kind === 'error') return <QrError message={phase.message} onRetry={retry} />;

  const { items, groupQrCode, groupQrTooComplex } = phase.loaded;
  const count = items.length;
  const current = Math.min(index, count - 1);
  const item = items[current];
  if (!item || !subscription) return null;
  // spec 01 §2: previous and next wrap around.
  const step = (delta: number) => setIndex((current + delta + count) % count);

  return (
    <div className="qr-dialog" data-testid="qr-ready">
      {count > 1 && (
        <p className="qr-dialog__group small" data-testid="qr-group-note">
          Group Subscription ({count} Servers)
        </p>
      )}
      <div className="qr-dialog__stage">
        {count > 1 && (
          <button
            type="button"
            className="qr-dialog__arrow"
            aria-label="Previous server"
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
            alt={`QR code of ${item.name}`}
            data-testid="qr-image"
          />
          <figcaption>
            <span className="qr-dialog__server" data-testid="qr-server-name">
              {item.name}
            </span>
            {count > 1 && (
              <span className="badge badge--info" data-testid="qr-position">
                Server {current + 1} of {count}
              </span>
            )}
          </figcaption>
        </figure>
        {count > 1 && (
          <button
            type="button"
            className="qr-dialog__arrow"
            aria-label="Next server"
            onClick={() => step(1)}
            data-testid="qr-next"
          >
            ›
          </button>
        )}
      </div>

      <div className="qr-dialog__copy">
        <label htmlFor="qr-connection" className="small muted">
          Connection string
        </label>
        <div className="qr-dialog__copy-row">
          <textarea
            id="qr-connection"
            className="input qr-dialog__connection"
            readOnly
            rows={3}
            value={item.vlessString}
            data-testid="qr-connection"
          />
          <CopyButton text={item.vlessString} data-testid="copy-connection" />
        </div>
      </div>

      <SubscriptionUrl
        url={subscription.subscriptionUrl}
        qrCode={groupQrCode}
        tooComplex={groupQrTooComplex}
      />

      <section className="qr-dialog__howto" aria-labelledby="qr-howto-title">
        <h3 id="qr-howto-title">How to use</h3>
        <ol>
          <li>Scan the QR code with your client app (v2rayN, v2rayNG, Streisand, Hiddify...).</li>
          <li>Or copy the link and import it from the clipboard in the app.</li>
          <li>Connect to any of the servers of your subscription.</li>
        </ol>
      </section>
    </div>
  );
}

function QrLoading() {
  return (
    <div className="qr-dialog__loading" role="status" aria-live="polite" data-testid="qr-loading">
      <span className="spinner" aria-hidden="true" />
      <span>Generating your connection details...</span>
    </div>
  );
}

function QrError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="stack" data-testid="qr-error">
      <Banner tone="error">{message}</Banner>
      <div>
        <Button variant="secondary" onClick={onRetry}>
          Try Again
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
  return (
    <div className="qr-dialog__copy">
      <span className="small muted">Subscription URL (imports and updates every server)</span>
      <div className="qr-dialog__copy-row">
        <code className="qr-dialog__url" data-testid="subscription-url">
          {url}
        </code>
        <CopyButton text={url} label="Copy URL" data-testid="copy-subscription-url" />
      </div>
      <details className="qr-dialog__group-qr">
        <summary>QR code of the subscription URL</summary>
        <QrImage
          key={url}
          qrCode={qrCode}
          tooComplex={tooComplex}
          text={url}
          alt="QR code of the subscription URL"
          data-testid="group-qr-image"
        />
      </details>
    </div>
  );
}
