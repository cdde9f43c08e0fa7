import { Trans } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useT } from '../../../lib/i18n/i18n';
import { SubscriptionActionError, type SubscriptionView, remove } from '../store';

export interface DeleteSubscriptionDialogProps {
  ownerUuid: string;
  subscription: SubscriptionView | null;
  onClose: () => void;
}

/**
 * docs/product/screens.md#dashboards-and-information-pages confirm deletion, stating what is lost before anything happens: the links stop
 * working at once, the paid time left is not refunded, and it cannot be undone.
 */
export function DeleteSubscriptionDialog({
  ownerUuid,
  subscription,
  onClose,
}: DeleteSubscriptionDialogProps) {
  const { t } = useT('client');
  return (
    <ConfirmDialog
      open={subscription !== null}
      title={t('delete.title')}
      confirmLabel={t('delete.confirm')}
      busyLabel={t('card.deleting')}
      variant="danger"
      onConfirm={async () => {
        if (!subscription) return;
        try {
          await remove(ownerUuid, subscription.id);
        } catch (error) {
          throw error instanceof SubscriptionActionError
            ? new Error(t(`notice.${error.key}`, { message: error.detail }))
            : error;
        }
      }}
      onClose={onClose}
      fallbackError={t('delete.fallbackError')}
      data-testid="delete-subscription-dialog"
    >
      <p>
        <Trans
          ns="client"
          i18nKey="delete.question"
          values={{ name: subscription?.name ?? '' }}
          components={{ strong: <strong /> }}
        />
      </p>
      <ul className="consequence-list small" data-testid="delete-consequences">
        <li className="consequence-list__loss">
          <span className="sr-only">{t('changeType.lossMark')} </span>
          {t('delete.linksStop', { count: subscription?.serverCount ?? 0 })}
        </li>
        <li className="consequence-list__loss">
          <span className="sr-only">{t('changeType.lossMark')} </span>
          {t('delete.noRefund')}
        </li>
        <li className="consequence-list__loss">
          <span className="sr-only">{t('changeType.lossMark')} </span>
          {t('delete.final')}
        </li>
      </ul>
    </ConfirmDialog>
  );
}
