import type { NodeServer } from '@scn/proto';
import { Trans } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useT } from '../../../lib/i18n/i18n';
import { removeServer } from '../server-actions';

export interface DeleteServerDialogProps {
  ownerUuid: string;
  server: NodeServer | null;
  onClose: () => void;
}

/**
 * docs/product/screens.md#dashboards-and-information-pages Confirm Deletion: the server goes, its subscribers lose it with their unused paid
 * time refunded, and its agent is refused from then on.
 */
export function DeleteServerDialog({ ownerUuid, server, onClose }: DeleteServerDialogProps) {
  const { t } = useT('node');
  return (
    <ConfirmDialog
      open={server !== null}
      title={t('delete.title')}
      confirmLabel={t('delete.action')}
      busyLabel={t('delete.busy')}
      variant="danger"
      onConfirm={() => (server ? removeServer(ownerUuid, server.id) : Promise.resolve())}
      onClose={onClose}
      fallbackError={t('delete.failed')}
      data-testid="delete-server-dialog"
    >
      <p data-testid="delete-server-consequence">
        <Trans
          ns="node"
          i18nKey="delete.body"
          values={{ name: server?.name ?? '' }}
          components={{ strong: <strong /> }}
        />
      </p>
    </ConfirmDialog>
  );
}
