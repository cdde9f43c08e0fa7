import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { type SubscriptionView, remove } from '../store';

export interface DeleteSubscriptionDialogProps {
  ownerUuid: string;
  subscription: SubscriptionView | null;
  onClose: () => void;
}

/** spec 02 §2 confirm deletion: the subscription's links stop working at once. */
export function DeleteSubscriptionDialog({
  ownerUuid,
  subscription,
  onClose,
}: DeleteSubscriptionDialogProps) {
  return (
    <ConfirmDialog
      open={subscription !== null}
      title="Confirm Deletion"
      confirmLabel="Delete Subscription"
      busyLabel="Deleting..."
      variant="danger"
      onConfirm={() => (subscription ? remove(ownerUuid, subscription.id) : Promise.resolve())}
      onClose={onClose}
      fallbackError="Error deleting subscription"
      data-testid="delete-subscription-dialog"
    >
      <p>
        Delete <strong>{subscription?.name}</strong>? Its connection strings and subscription URL
        stop working at once, and the time left is not refunded. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
