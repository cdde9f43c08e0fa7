import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useT } from '../../../lib/i18n/i18n';
import { type SubscriptionView, pause } from '../store';

export interface PauseSubscriptionDialogProps {
  ownerUuid: string;
  subscription: SubscriptionView | null;
  onClose: () => void;
}

/**
 * Pausing spends one of the few pauses the allowance gives (docs/api.md, pause: hourly 2 in any
 * 24 hours, monthly 1 in any 6 months), so the card asks first and says what it costs: which
 * pause it uses, that links stop connecting, that the paid time stops, and when it ends by itself.
 */
export function PauseSubscriptionDialog({
  ownerUuid,
  subscription,
  onClose,
}: PauseSubscriptionDialogProps) {
  const { t } = useT('client');
  const allowance = subscription?.pauseAllowance;
  const hourly = subscription?.billingCycle === 'hourly';
  return (
    <ConfirmDialog
      open={subscription !== null}
      title={t('pauseDialog.title')}
      confirmLabel={t('pauseDialog.confirm')}
      busyLabel={t('card.pausing')}
      fallbackError={t('pauseDialog.failed')}
      onConfirm={async () => {
        if (subscription) await pause(ownerUuid, subscription.id);
      }}
      onClose={onClose}
      data-testid="pause-subscription-dialog"
    >
      {allowance && (
        <ul className="consequence-list small" data-testid="pause-consequences">
          <li>
            {t(hourly ? 'pauseDialog.usesHourly' : 'pauseDialog.usesMonthly', {
              total: allowance.pausesPerWindow,
              left: allowance.pausesLeft,
            })}
          </li>
          <li>{t('pauseDialog.linksStop')}</li>
          <li>
            {hourly
              ? t('pauseDialog.endsHours', { hours: allowance.maxPauseHours })
              : t('pauseDialog.endsDays', { days: allowance.maxPauseHours / 24 })}
          </li>
        </ul>
      )}
    </ConfirmDialog>
  );
}
