import { useEffect, useState } from 'react';
import { formatMicroSsl } from '../../../lib/money';
import { Button } from '../../../components/ui/button';
import { formatDate, formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import type { Locale } from '../../../lib/i18n/locale';
import { COUNTDOWN_REFRESH_MS, countdownText, pausedCountdownText } from '../countdown';
import {
  type SubscriptionAction,
  type SubscriptionView,
  activate,
  changeAutoRenew,
} from '../store';
import { PauseSubscriptionDialog } from './pause-subscription-dialog';
import { ReachabilityCheck } from './reachability-check';
import { SubscriptionTrafficChart } from './subscription-traffic-chart';
import { WithdrawnServers } from './withdrawn-servers';
import '../subscriptions.css';

export interface SubscriptionCardProps {
  ownerUuid: string;
  subscription: SubscriptionView;
  busy: SubscriptionAction | undefined;
  highlighted: boolean;
  onShowQr: (subscription: SubscriptionView) => void;
  onChangeType: (subscription: SubscriptionView) => void;
  onDelete: (subscription: SubscriptionView) => void;
  /** Called after an action that may have moved money (activation pays unpaid time). */
  onBalanceChanged: () => void;
}

/** A date and time in the reader's calendar and digits; an unreadable date as it came. */
export function dateTimeText(iso: string | null, locale: Locale): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : formatDate(date, locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "01:30" in the reader's digits (Persian digits for fa). */
function localDigits(text: string, locale: Locale): string {
  return text.replace(/[0-9]/g, (digit) => formatNumber(Number(digit), locale));
}

/** docs/product/states.md#subscription-and-reliability-states: the hourly countdown, re-rendered every 60 s. */
function Countdown({ subscription }: { subscription: SubscriptionView }) {
  const { locale } = useT('client');
  const [now, setNow] = useState(() => Date.now());
  const running = subscription.status === 'active';
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), COUNTDOWN_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [running]);
  const text = running
    ? countdownText(subscription.expirationDate, now)
    : pausedCountdownText(subscription.remainingSeconds);
  return (
    <span className="subscription-card__countdown" data-testid="subscription-countdown" dir="ltr">
      {localDigits(text, locale)}
    </span>
  );
}

function StatusBadge({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useT('client');
  if (subscription.status === 'active')
    return <span className="badge badge--success">{t('card.status.active')}</span>;
  if (subscription.status === 'expired')
    return <span className="badge badge--danger">{t('card.status.expired')}</span>;
  if (subscription.pauseReason === 'insufficient_funds') {
    return <span className="badge badge--danger">{t('card.status.unpaid')}</span>;
  }
  return <span className="badge badge--warning">{t('card.status.paused')}</span>;
}

/** One subscription of the client dashboard (docs/product/screens.md#dashboards-and-information-pages, docs/product/records.md#dashboard-records) with its actions. */
export function SubscriptionCard({
  ownerUuid,
  subscription,
  busy,
  highlighted,
  onShowQr,
  onChangeType,
  onDelete,
  onBalanceChanged,
}: SubscriptionCardProps) {
  const { t, locale } = useT('client');
  const titleId = `subscription-${subscription.id}-title`;
  const isActive = subscription.status === 'active';
  const hourly = subscription.billingCycle === 'hourly';
  const allowance = subscription.pauseAllowance;
  const [confirmingPause, setConfirmingPause] = useState(false);

  return (
    <article
      className={`card subscription-card${highlighted ? ' subscription-card--highlighted' : ''}`}
      aria-labelledby={titleId}
      data-testid="subscription-card"
      data-subscription-id={subscription.id}
      data-status={subscription.status}
    >
      <header className="subscription-card__header">
        <h3 id={titleId} className="subscription-card__name">
          {/* The server names every subscription by its size ("Subscription (2 servers)"). */}
          {t('card.name', { count: subscription.serverCount })}
        </h3>
        <div className="subscription-card__badges">
          <StatusBadge subscription={subscription} />
          <span className="badge badge--info" data-testid="subscription-cycle">
            {hourly ? t('card.cycle.hourly') : t('card.cycle.monthly')}
          </span>
        </div>
      </header>

      <ul className="subscription-card__servers" data-testid="subscription-servers">
        {subscription.servers.map((server) => (
          <li key={server.id}>
            <span className="subscription-card__server-name">{server.name}</span>
            {server.country && (
              <span className="small muted">
                {' · '}
                <bdi>{server.country}</bdi>
              </span>
            )}
            {server.isAdminServer && (
              <span className="small muted">
                {' · '}
                {t('card.premium')}
              </span>
            )}
          </li>
        ))}
      </ul>
      <WithdrawnServers subscription={subscription} />
      <ReachabilityCheck ownerUuid={ownerUuid} subscription={subscription} />

      <SubscriptionFacts subscription={subscription} />

      <SubscriptionTrafficChart
        ownerUuid={ownerUuid}
        subscriptionId={subscription.id}
        servers={subscription.servers}
      />

      {!isActive && <PausedNote subscription={subscription} />}

      <footer className="subscription-card__actions">
        <Button
          variant="primary"
          size="sm"
          onClick={() => onShowQr(subscription)}
          data-testid="show-qr"
        >
          {t('card.showQr')}
        </Button>
        {isActive ? (
          <>
            <Button
              variant="secondary"
              size="sm"
              disabled={busy !== undefined}
              onClick={() => setConfirmingPause(true)}
              data-testid="pause-subscription"
              title={
                allowance.pausesLeft === 0 && allowance.nextPauseAvailableAt
                  ? t('card.nextPause', {
                      date: dateTimeText(allowance.nextPauseAvailableAt, locale),
                    })
                  : undefined
              }
            >
              {busy === 'pause' ? t('card.pausing') : t('card.pause')}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={busy !== undefined}
              onClick={() => onChangeType(subscription)}
            >
              {busy === 'change-type'
                ? t('card.changing')
                : hourly
                  ? t('card.switchTo.monthly')
                  : t('card.switchTo.hourly')}
            </Button>
            <label className="subscription-card__renew">
              <input
                type="checkbox"
                checked={subscription.autoRenew}
                disabled={busy !== undefined}
                onChange={(event) =>
                  void changeAutoRenew(ownerUuid, subscription.id, event.target.checked)
                }
                data-testid="auto-renew"
              />{' '}
              {t('card.renew')}
            </label>
          </>
        ) : subscription.serverCount === 0 ? null : (
          <Button
            variant="secondary"
            size="sm"
            disabled={busy !== undefined}
            onClick={() =>
              void activate(ownerUuid, subscription.id).then((ran) => {
                if (ran) onBalanceChanged();
              })
            }
          >
            {busy === 'activate' ? t('card.activating') : t('card.activate')}
          </Button>
        )}
        <Button
          variant="danger"
          size="sm"
          disabled={busy !== undefined}
          onClick={() => onDelete(subscription)}
        >
          {busy === 'delete' ? t('card.deleting') : t('card.delete')}
        </Button>
      </footer>
      <PauseSubscriptionDialog
        ownerUuid={ownerUuid}
        subscription={confirmingPause ? subscription : null}
        onClose={() => setConfirmingPause(false)}
      />
    </article>
  );
}

/** Billing, time left or the paid-until date, creation and the pauses left. */
function SubscriptionFacts({ subscription }: { subscription: SubscriptionView }) {
  const { t, locale } = useT('client');
  const isActive = subscription.status === 'active';
  const hourly = subscription.billingCycle === 'hourly';
  const allowance = subscription.pauseAllowance;
  return (
    <dl className="subscription-card__facts">
      <div>
        <dt>{t('card.facts.billing')}</dt>
        <dd data-testid="subscription-billing">
          {hourly
            ? t('card.facts.perHour', {
                amount: formatMicroSsl(subscription.hourlyPriceMicro, locale, {
                  decimals: 'cents',
                }),
              })
            : t('card.facts.per30Days', {
                amount: formatMicroSsl(subscription.billingAmountMicro, locale, {
                  decimals: 'cents',
                }),
              })}
        </dd>
      </div>
      {hourly ? (
        <div>
          <dt>{t('card.facts.timeLeft')}</dt>
          <dd>
            <Countdown subscription={subscription} />
          </dd>
        </div>
      ) : (
        <div>
          <dt>
            {isActive
              ? subscription.autoRenew
                ? t('card.facts.renews')
                : t('card.facts.expires')
              : t('card.facts.paidUntil')}
          </dt>
          <dd>{dateTimeText(subscription.expirationDate, locale)}</dd>
        </div>
      )}
      <div>
        <dt>{t('card.facts.created')}</dt>
        <dd>{dateTimeText(subscription.created, locale)}</dd>
      </div>
      {isActive && (
        <div>
          <dt>{t('card.facts.pausesLeft')}</dt>
          <dd data-testid="subscription-pauses">
            {t('card.facts.pausesValue', {
              left: formatNumber(allowance.pausesLeft, locale),
              total: formatNumber(allowance.pausesPerWindow, locale),
            })}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** Why a subscription is not running, when it resumes, and what activating it costs. */
function PausedNote({ subscription }: { subscription: SubscriptionView }) {
  const { t, locale } = useT('client');
  const activationPrice = BigInt(subscription.activationPriceMicro);
  return (
    <p className="small muted subscription-card__paused" data-testid="subscription-paused">
      {subscription.status === 'expired'
        ? t('card.expiredNote')
        : subscription.pauseReason === 'insufficient_funds'
          ? t('card.unpaidNote')
          : t('card.pausedSince', { date: dateTimeText(subscription.pausedAt, locale) })}
      {subscription.pauseEndsAt &&
        ` ${t('card.resumesOn', { date: dateTimeText(subscription.pauseEndsAt, locale) })}`}
      {activationPrice > 0n &&
        ` ${t('card.activationCost', {
          amount: formatMicroSsl(subscription.activationPriceMicro, locale, { decimals: 'cents' }),
        })}`}
    </p>
  );
}
