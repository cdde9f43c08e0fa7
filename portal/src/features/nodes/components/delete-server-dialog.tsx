import type { NodeServer } from '@scn/proto';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { removeServer } from '../store';

export interface DeleteServerDialogProps {
  ownerUuid: string;
  server: NodeServer | null;
  onClose: () => void;
}

/** spec 02 §2 Confirm Deletion: the server goes, and its agent is refused from then on. */
export function DeleteServerDialog({ ownerUuid, server, onClose }: DeleteServerDialogProps) {
  return (
    <ConfirmDialog
      open={server !== null}
      title="Confirm Deletion"
      confirmLabel="Delete Server"
      busyLabel="Deleting..."
      variant="danger"
      onConfirm={() => (server ? removeServer(ownerUuid, server.id) : Promise.resolve())}
      onClose={onClose}
      fallbackError="Failed to delete server"
      data-testid="delete-server-dialog"
    >
      <p>
        Delete <strong>{server?.name}</strong>? It leaves the network at once and its agent can no
        longer report. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
