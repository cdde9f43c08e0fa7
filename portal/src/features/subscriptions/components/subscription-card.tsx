import { formatSsl } from '@scn/proto';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { COUNTDOWN_REFRESH_MS, countdownText, pausedCountdownText } from '../countdown';
import {
  type SubscriptionAction,
  type SubscriptionView,
  activate,
  changeAutoRenew,
  pause,
} from '../store';
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

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string | null) => {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
};

/** spec 02 §4: the hourly countdown, re-rendered every 60 s. */
function Countdown({ subscription }: { subscription: SubscriptionView }) {
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
    <span className="subscription-card__countdown" data-testid="subscription-countdown">
      {text}
    </span>
  );
}

function statusBadge(subscription: SubscriptionView) {
  if (subscription.status === 'active') return <span className="badge badge--success">Active</span>;
  if (subscription.status === 'expired')
    return <span className="badge badge--danger">Expired</span>;
  if (subscription.pauseReason === 'insufficient_funds') {
    return <span className="badge badge--danger">Unpaid</span>;
  }
  return <span className="badge badge--warning">Paused</span>;
}

/** One subscription of the client dashboard (spec 02 §2, §3) with its actions. */
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
  const titleId = `subscription-${subscription.id}-title`;
  const isActive = subscription.status === 'active';
  const hourly = subscription.billingCycle === 'hourly';
  const other = hourly ? 'monthly' : 'hourly';
  const allowance = subscription.pauseAllowance;
  const activationPrice = BigInt(subscription.activationPriceMicro);

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
          {subscription.name}
        </h3>
        <div className="subscription-card__badges">
          {statusBadge(subscription)}
          <span className="badge badge--info" data-testid="subscription-cycle">
            {hourly ? 'Hourly' : 'Monthly'}
          </span>
        </div>
      </header>

      <ul className="subscription-card__servers" data-testid="subscription-servers">
        {subscription.servers.map((server) => (
          <li key={server.id}>
            <span className="subscription-card__server-name">{server.name}</span>
            {server.country && <span className="small muted"> · {server.country}</span>}
            {server.isAdminServer && <span className="small muted"> · Premium</span>}
          </li>
        ))}
      </ul>
      <WithdrawnServers subscription={subscription} />

      <SubscriptionFacts subscription={subscription} />

      <SubscriptionTrafficChart
        ownerUuid={ownerUuid}
        subscriptionId={subscription.id}
        servers={subscription.servers}
      />

      {!isActive && (
        <p className="small muted subscription-card__paused" data-testid="subscription-paused">
          {subscription.status === 'expired'
            ? 'This subscription expired.'
            : subscription.pauseReason === 'insufficient_funds'
              ? 'Paused: a payment could not be made.'
              : `Paused since ${formatDate(subscription.pausedAt)}.`}
          {subscription.pauseEndsAt &&
            ` It resumes by itself on ${formatDate(subscription.pauseEndsAt)}.`}
          {activationPrice > 0n &&
            ` Activating it costs ${formatSsl(subscription.activationPriceMicro)} SSL.`}
        </p>
      )}

      <footer className="subscription-card__actions">
        <Button
          variant="primary"
          size="sm"
          onClick={() => onShowQr(subscription)}
          data-testid="show-qr"
        >
          Show QR
        </Button>
        {isActive ? (
          <>
            <Button
              variant="secondary"
              size="sm"
              disabled={busy !== undefined}
              onClick={() => void pause(ownerUuid, subscription.id)}
              title={
                allowance.pausesLeft === 0 && allowance.nextPauseAvailableAt
                  ? `Next pause possible from ${formatDate(allowance.nextPauseAvailableAt)}`
                  : undefined
              }
            >
              {busy === 'pause' ? 'Pausing...' : 'Pause'}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={busy !== undefined}
              onClick={() => onChangeType(subscription)}
            >
              {busy === 'change-type' ? 'Changing...' : `Switch to ${other}`}
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
              Renew automatically
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
            {busy === 'activate' ? 'Activating...' : 'Activate'}
          </Button>
        )}
        <Button
          variant="danger"
          size="sm"
          disabled={busy !== undefined}
          onClick={() => onDelete(subscription)}
        >
          {busy === 'delete' ? 'Deleting...' : 'Delete'}
        </Button>
      </footer>
    </article>
  );
}

/** Billing, time left or the paid-until date, creation and the pauses left. */
function SubscriptionFacts({ subscription }: { subscription: SubscriptionView }) {
  const isActive = subscription.status === 'active';
  const hourly = subscription.billingCycle === 'hourly';
  const allowance = subscription.pauseAllowance;
  return (
    <dl className="subscription-card__facts">
      <div>
        <dt>Billing</dt>
        <dd data-testid="subscription-billing">
          {hourly
            ? `${formatSsl(subscription.hourlyPriceMicro)} SSL / hour`
            : `${formatSsl(subscription.billingAmountMicro)} SSL / 30 days`}
        </dd>
      </div>
      {hourly ? (
        <div>
          <dt>Time left</dt>
          <dd>
            <Countdown subscription={subscription} />
          </dd>
        </div>
      ) : (
        <div>
          <dt>{isActive ? (subscription.autoRenew ? 'Renews' : 'Expires') : 'Paid until'}</dt>
          <dd>{formatDate(subscription.expirationDate)}</dd>
        </div>
      )}
      <div>
        <dt>Created</dt>
        <dd>{formatDate(subscription.created)}</dd>
      </div>
      {isActive && (
        <div>
          <dt>Pauses left</dt>
          <dd data-testid="subscription-pauses">
            {allowance.pausesLeft} of {allowance.pausesPerWindow}
          </dd>
        </div>
      )}
    </dl>
  );
}
