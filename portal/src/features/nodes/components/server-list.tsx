import type { NodeServer } from '@scn/proto';
import { useCallback, useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { onRealtime } from '../../../lib/realtime';
import { REFRESH_INTERVAL_MS, loadServers, useNodes } from '../store';
import { AddServerDialog } from './add-server-dialog';
import { DeleteServerDialog } from './delete-server-dialog';
import { NodeConfigDialog } from './node-config-dialog';
import { ServerCard } from './server-card';
import '../nodes.css';

export interface ServerListProps {
  ownerUuid: string;
  onOpenWizard: () => void;
  /** spec 01 §2: opens the Promote Server modal for a server (the app composes it). */
  onPromote?: (server: NodeServer) => void;
}

/** spec 02 §2 server list, refreshed every 60 s (spec 02 §9) and on demand. */
export function ServerList({ ownerUuid, onOpenWizard, onPromote }: ServerListProps) {
  const { servers, status, error, refreshing, lastRefreshedAt } = useNodes();
  const [deleting, setDeleting] = useState<NodeServer | null>(null);
  const [configuring, setConfiguring] = useState<NodeServer | null>(null);
  // The listed row as it is now (a save renames it); the one it was opened from once it is gone.
  const configured = configuring
    ? (servers.find((server) => server.id === configuring.id) ?? configuring)
    : null;
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    void loadServers(ownerUuid);
    const timer = window.setInterval(() => void loadServers(ownerUuid), REFRESH_INTERVAL_MS);
    // A server appeared, changed availability or disappeared: refetch at once.
    const unsubscribe = onRealtime('server-list-updated', () => void loadServers(ownerUuid));
    return () => {
      window.clearInterval(timer);
      unsubscribe();
    };
  }, [ownerUuid]);

  const closeAdd = useCallback(() => setAdding(false), []);

  // Relative times are measured at the last refresh (set whenever the list is shown).
  const now = lastRefreshedAt ?? 0;

  return (
    <section className="node-servers" aria-labelledby="node-servers-title">
      <div className="node-servers__header">
        <h2 id="node-servers-title">Your Servers</h2>
        <Button variant="secondary" size="sm" onClick={() => setAdding(true)}>
          Add New Server
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void loadServers(ownerUuid)}
          disabled={refreshing}
          data-testid="refresh-servers"
        >
          {refreshing ? 'Refreshing...' : 'Refresh'}
        </Button>
      </div>

      {status === 'loading' || status === 'idle' ? (
        <div className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>Loading your servers...</span>
        </div>
      ) : status === 'error' ? (
        <div className="stack">
          <Banner tone="error" data-testid="servers-error">
            {error}
          </Banner>
          <div>
            <Button variant="secondary" onClick={() => void loadServers(ownerUuid)}>
              Try Again
            </Button>
          </div>
        </div>
      ) : servers.length === 0 ? (
        <div className="card empty-state" data-testid="servers-empty">
          <h3>No servers yet</h3>
          <p className="muted">
            Set up a VPS with the wizard: it appears here 2 to 3 minutes after the install.
          </p>
          <Button variant="primary" onClick={onOpenWizard}>
            Set Up a VPS Node
          </Button>
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
