import type { NodeServer } from '@scn/proto';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { removeServer } from '../store';

export interface DeleteServerDialogProps {
  ownerUuid: string;
  server: NodeServer | null;
  onClose: () => void;
}

/** spec 02 §2 Confirm Deletion: the server goes, and its agent is refused from then on. */
export function DeleteServerDialog({ ownerUuid, server, onClose }: DeleteServerDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };

  const confirm = async () => {
    if (!server) return;
    setBusy(true);
    setError(null);
    try {
      await removeServer(ownerUuid, server.id);
      setBusy(false);
      onClose();
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : 'Failed to delete server');
    }
  };

  return (
    <Dialog
      open={server !== null}
      onClose={close}
      title="Confirm Deletion"
      size="sm"
      data-testid="delete-server-dialog"
    >
      <p>
        Delete <strong>{server?.name}</strong>? It leaves the network at once and its agent can no
        longer report. This cannot be undone.
      </p>
      {error && (
        <Banner tone="error" data-testid="delete-server-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={close} disabled={busy} data-autofocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Deleting...' : 'Delete Server'}
        </Button>
      </div>
    </Dialog>
  );
}
