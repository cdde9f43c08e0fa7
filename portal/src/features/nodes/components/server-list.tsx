import type { NodeServer } from '@scn/proto';
import { useCallback, useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { onRealtime } from '../../../lib/realtime';
import { refreshServers, useServers } from '../api/get-servers';
import { AddServerDialog } from './add-server-dialog';
import { DeleteServerDialog } from './delete-server-dialog';
import { NodeConfigDialog } from './node-config-dialog';
import { ServerCard } from './server-card';
import '../nodes.css';

export interface ServerListProps {
  ownerUuid: string;
  onOpenWizard: () => void;
  /** docs/product/screens.md#the-shell-and-the-market-screens: opens the Promote Server modal for a server (the app composes it). */
  onPromote?: (server: NodeServer) => void;
}

/**
 * docs/product/screens.md#dashboards-and-information-pages server list, refreshed every 60 s (docs/product/constants.md#billing-and-the-economy) and on demand. Empty, it leads with
 * setting up a VPS node; a server run without the agent comes second.
 */
export function ServerList({ ownerUuid, onOpenWizard, onPromote }: ServerListProps) {
  const { t } = useT('node');
  const { servers, status, error, refreshing, lastRefreshedAt, refresh } = useServers(
    ownerUuid,
    true,
  );
  const empty = status === 'ready' && servers.length === 0;
  const [deleting, setDeleting] = useState<NodeServer | null>(null);
  const [configuring, setConfiguring] = useState<NodeServer | null>(null);
  // The listed row as it is now (a save renames it); the one it was opened from once it is gone.
  const configured = configuring
    ? (servers.find((server) => server.id === configuring.id) ?? configuring)
    : null;
  const [adding, setAdding] = useState(false);

  // A server appeared, changed availability or disappeared: refetch at once.
  useEffect(
    () => onRealtime('server-list-updated', () => void refreshServers(ownerUuid)),
    [ownerUuid],
  );

  const closeAdd = useCallback(() => setAdding(false), []);

  // Relative times are measured at the last refresh (set whenever the list is shown).
  const now = lastRefreshedAt ?? 0;

  return (
    <section className="node-servers" aria-labelledby="node-servers-title">
      <div className="node-servers__header">
        <h2 id="node-servers-title">{t('servers.title')}</h2>
        {!empty && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setAdding(true)}
            data-testid="add-server"
          >
            {t('servers.add')}
          </Button>
        )}
        <Button
          variant="secondary"
          size="sm"
          onClick={refresh}
          disabled={refreshing}
          data-testid="refresh-servers"
        >
          {refreshing ? t('servers.refreshing') : t('servers.refresh')}
        </Button>
      </div>

      {status === 'loading' ? (
        <div className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('servers.loading')}</span>
        </div>
      ) : status === 'error' ? (
        <div className="stack">
          <Banner tone="error" data-testid="servers-error">
            {error ?? t('servers.loadFailed')}
          </Banner>
          <div>
            <Button variant="secondary" onClick={refresh}>
              {t('servers.retry')}
            </Button>
          </div>
        </div>
      ) : servers.length === 0 ? (
        <div className="card empty-state" data-testid="servers-empty">
          <h3>{t('servers.empty.title')}</h3>
          <p className="muted">{t('servers.empty.vps')}</p>
          <div className="empty-state__actions">
            <Button variant="primary" onClick={onOpenWizard} data-testid="empty-setup-vps">
              {t('servers.empty.setUp')}
            </Button>
          </div>
          <p className="small muted">{t('servers.empty.manual')}</p>
          <div className="empty-state__actions">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setAdding(true)}
              data-testid="empty-add-server"
            >
              {t('servers.add')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="node-servers__grid" data-testid="server-list">
          {servers.map((server) => (
            <ServerCard
              key={server.id}
              ownerUuid={ownerUuid}
              server={server}
              now={now}
              onDelete={setDeleting}
              onConfigure={setConfiguring}
              onPromote={onPromote}
            />
          ))}
        </div>
      )}

      <AddServerDialog ownerUuid={ownerUuid} open={adding} onClose={closeAdd} />
      <NodeConfigDialog
        ownerUuid={ownerUuid}
        server={configured}
        onClose={() => setConfiguring(null)}
      />
      <DeleteServerDialog
        ownerUuid={ownerUuid}
        server={deleting}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
