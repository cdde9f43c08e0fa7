import { PRICING, formatSsl, sslToMicro } from '@scn/proto';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { type SubscriptionView, changeType } from '../store';

export interface ChangeTypeDialogProps {
  ownerUuid: string;
  subscription: SubscriptionView | null;
  onClose: () => void;
  /** The change moved money (or paused the subscription): the wallet should reload. */
  onBalanceChanged: () => void;
}

/**
 * spec 02 §4, §9: switching between monthly and hourly billing costs 10 SSL per server upfront,
 * with no refund of the remaining time. The server prices it; this shows what it will ask.
 */
export function ChangeTypeDialog({
  ownerUuid,
  subscription,
  onClose,
  onBalanceChanged,
}: ChangeTypeDialogProps) {
  const next = subscription?.billingCycle === 'hourly' ? 'monthly' : 'hourly';
  const perServer = sslToMicro(PRICING.monthlyPerServerSsl);
  const total = perServer * BigInt(subscription?.serverCount ?? 0);

  const confirm = async () => {
    if (!subscription) return;
    await changeType(ownerUuid, subscription.id, next);
    onBalanceChanged();
  };

  return (
    <ConfirmDialog
      open={subscription !== null}
      title="Change Billing Type"
      confirmLabel={`Switch to ${next}`}
      busyLabel="Changing..."
      onConfirm={confirm}
      onClose={onClose}
      fallbackError="Failed to change the billing type"
      data-testid="change-type-dialog"
    >
      <p>
        Switch <strong>{subscription?.name}</strong> to <strong>{next}</strong> billing?
      </p>
      <ul className="check-list small">
        <li>
          It costs {formatSsl(perServer)} SSL per server
          {subscription && subscription.serverCount > 1
            ? `, ${formatSsl(total)} SSL for its ${subscription.serverCount} servers,`
            : ''}{' '}
          paid now.
        </li>
        <li>The time left on the current billing is not refunded.</li>
        <li>
          {next === 'hourly'
            ? `Hourly billing runs in blocks of ${PRICING.hourlyBlockHours} hours at 0.1 SSL per server per hour.`
            : `Monthly billing runs for ${PRICING.monthlyValidityDays} days at a time.`}
        </li>
        <li>If your balance is short, the subscription is paused until you activate it.</li>
      </ul>
    </ConfirmDialog>
  );
}
