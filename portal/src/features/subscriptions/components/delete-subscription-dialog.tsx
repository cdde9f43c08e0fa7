import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };

  const confirm = async () => {
    if (!subscription) return;
    setBusy(true);
    setError(null);
    try {
      await remove(ownerUuid, subscription.id);
      setBusy(false);
      onClose();
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : 'Error deleting subscription');
    }
  };

  return (
    <Dialog
      open={subscription !== null}
      onClose={close}
      title="Confirm Deletion"
      size="sm"
      data-testid="delete-subscription-dialog"
    >
      <p>
        Delete <strong>{subscription?.name}</strong>? Its connection strings and subscription URL
        stop working at once, and the time left is not refunded. This cannot be undone.
      </p>
      {error && (
        <Banner tone="error" data-testid="delete-subscription-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={close} disabled={busy} data-autofocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Deleting...' : 'Delete Subscription'}
        </Button>
      </div>
    </Dialog>
  );
}
