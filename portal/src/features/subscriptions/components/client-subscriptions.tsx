import { useEffect, useState } from 'react';
import { formatMicroSsl } from '../../../lib/money';
import { Link } from 'wouter';
import { Banner } from '../../../components/ui/banner';
import { Button, buttonClass } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { onRealtime } from '../../../lib/realtime';
import { isServerReplaced } from '../reachability-report';
import {
  type Notice,
  type SubscriptionView,
  dismissNotice,
  noticeServerReplaced,
  useSubscriptionActions,
} from '../store';
import { refreshSubscriptions, useSubscriptionLists } from '../subscriptions-query';
import { ChangeTypeDialog } from './change-type-dialog';
import { DeleteSubscriptionDialog } from './delete-subscription-dialog';
import { SubscriptionCard } from './subscription-card';
import { SubscriptionQrDialog } from './subscription-qr-dialog';
import '../subscriptions.css';

/** docs/product/constants.md#billing-and-the-economy: a new subscription's card is highlighted for 3 s. */
export const HIGHLIGHT_MS = 3_000;

export interface ClientSubscriptionsProps {
  ownerUuid: string;
  /** docs/product/screens.md#dashboards-and-information-pages navigation state newSubscriptionId: scroll to that card and highlight it. */
  highlightId?: string | null;
  /** docs/product/screens.md#dashboards-and-information-pages navigation state showSubscription: open the QR modal of that subscription. */
  showQrFor?: string | null;
  /** An action moved money: the wallet should reload. */
  onBalanceChanged: () => void;
}

/** The Active and Paused Subscriptions sections of the client dashboard (docs/product/screens.md#dashboards-and-information-pages). */
export function ClientSubscriptions({
  ownerUuid,
  highlightId = null,
  showQrFor = null,
  onBalanceChanged,
}: ClientSubscriptionsProps) {
  const { t } = useT('client');
  const { active, paused, status, error, fresh, reload } = useSubscriptionLists(ownerUuid);
  const { busy, notice } = useSubscriptionActions(ownerUuid);
  const [qrFor, setQrFor] = useState<SubscriptionView | null>(null);
  const [qrMissing, setQrMissing] = useState(false);
  const [changing, setChanging] = useState<SubscriptionView | null>(null);
  const [deleting, setDeleting] = useState<SubscriptionView | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  // Navigation state is acted on once, when the lists that hold the subscription have loaded.
  const [pendingQr, setPendingQr] = useState(showQrFor);
  const [pendingHighlight, setPendingHighlight] = useState(highlightId);
  useSubscriptionEvents(ownerUuid);

  const ready = status === 'ready';
  // Lists held from an earlier visit may predate the new subscription: wait for this visit's read.
  if (ready && fresh && (pendingQr || pendingHighlight)) {
    const all = [...active, ...paused];
    if (pendingQr) {
      const found = all.find((item) => item.id === pendingQr) ?? null;
      setPendingQr(null);
      if (found) setQrFor(found);
      else setQrMissing(true);
    }
    if (pendingHighlight) {
      setPendingHighlight(null);
      if (all.some((item) => item.id === pendingHighlight)) setHighlighted(pendingHighlight);
    }
  }

  // docs/product/screens.md#dashboards-and-information-pages: scroll to the new card, and let its highlight fade after 3 s.
  useEffect(() => {
    if (!highlighted) return;
    document
      .querySelector<HTMLElement>(
        `[data-testid="subscription-card"][data-subscription-id="${CSS.escape(highlighted)}"]`,
      )
      ?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    const timer = window.setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [highlighted]);

  const card = (subscription: SubscriptionView) => (
    <SubscriptionCard
      key={subscription.id}
      ownerUuid={ownerUuid}
      subscription={subscription}
      busy={busy[subscription.id]}
      highlighted={highlighted === subscription.id}
      onShowQr={setQrFor}
      onChangeType={setChanging}
      onDelete={setDeleting}
      onBalanceChanged={onBalanceChanged}
    />
  );

  return (
    <div className="client-subscriptions">
      {notice && (
        <div className="client-subscriptions__notice">
          <Banner tone={notice.tone} data-testid="subscription-notice">
            <NoticeText notice={notice} />
          </Banner>
          <button
            type="button"
            className="client-subscriptions__dismiss"
            aria-label={t('list.dismiss')}
            onClick={dismissNotice}
          >
            ×
          </button>
        </div>
      )}

      <section aria-labelledby="active-subscriptions-title" data-testid="active-subscriptions">
        <h2 id="active-subscriptions-title">{t('list.activeTitle')}</h2>
        {status === 'error' ? (
          <div className="stack">
            <Banner tone="error" data-testid="subscriptions-error">
              {error}
            </Banner>
            <div>
              <Button variant="secondary" onClick={reload}>
                {t('list.tryAgain')}
              </Button>
            </div>
          </div>
        ) : !ready ? (
          <div className="client-subscriptions__loading" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <span>{t('list.loading')}</span>
          </div>
        ) : active.length > 0 ? (
          <div className="client-subscriptions__grid">{active.map(card)}</div>
        ) : paused.length > 0 ? (
          <div className="card empty-state" data-testid="subscriptions-paused-only">
            <h3>{t('list.pausedOnlyTitle')}</h3>
            <p className="muted">{t('list.pausedOnlyBody')}</p>
          </div>
        ) : (
          <div className="card empty-state" data-testid="subscriptions-empty">
            <h3>{t('list.emptyTitle')}</h3>
            <p className="muted">{t('list.emptyBody')}</p>
            <Link href={paths.servers} className={buttonClass({ variant: 'primary' })}>
              {t('dashboard.browseServers')}
            </Link>
          </div>
        )}
      </section>

      {ready && paused.length > 0 && (
        <section aria-labelledby="paused-subscriptions-title" data-testid="paused-subscriptions">
          <h2 id="paused-subscriptions-title">{t('list.pausedTitle')}</h2>
          <div className="client-subscriptions__grid">{paused.map(card)}</div>
        </section>
      )}

      <SubscriptionQrDialog
        ownerUuid={ownerUuid}
        subscription={qrFor}
        missing={qrMissing}
        onClose={() => {
          setQrFor(null);
          setQrMissing(false);
        }}
      />
      <ChangeTypeDialog
        ownerUuid={ownerUuid}
        subscription={changing}
        onClose={() => setChanging(null)}
        onBalanceChanged={onBalanceChanged}
      />
      <DeleteSubscriptionDialog
        ownerUuid={ownerUuid}
        subscription={deleting}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

/** A subscription changed without the client (a blocked server replaced): re-fetch, and say so. */
function useSubscriptionEvents(ownerUuid: string): void {
  useEffect(
    () =>
      onRealtime('subscription-updated', (payload) => {
        if (isServerReplaced(payload)) noticeServerReplaced(ownerUuid);
        void refreshSubscriptions(ownerUuid);
      }),
    [ownerUuid],
  );
}

/** A notice in the reader's language (the store keeps its key and values, not English text). */
function NoticeText({ notice }: { notice: Notice }) {
  const { t, locale } = useT('client');
  if (notice.key === 'autoPaused') {
    return t('notice.autoPaused', {
      available: formatMicroSsl(notice.availableMicro ?? '0', locale, { decimals: 'cents' }),
      required:
        notice.required === undefined
          ? '?'
          : `${formatNumber(notice.required, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} SSL`,
    });
  }
  return t(`notice.${notice.key}`, { message: notice.message ?? '' });
}
