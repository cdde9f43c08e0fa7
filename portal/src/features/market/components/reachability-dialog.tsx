import type { ReachabilityRow } from '@scn/proto';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { ReachabilityTable } from '../../../components/reachability/reachability-table';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n/i18n';
import { getServerReachability } from '../api/get-server-reachability';

export interface ReachabilityDialogProps {
  /** The server whose table is open, or null (closed). */
  server: { id: string; name: string } | null;
  onClose: () => void;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; rows: ReachabilityRow[]; at: number };

/** The dialog and what opens it, for the market's cards. */
export function useReachabilityDialog(): {
  show: (server: { id: string; name: string }) => void;
  dialog: ReactNode;
} {
  const [server, setServer] = useState<{ id: string; name: string } | null>(null);
  const show = useCallback(
    ({ id, name }: { id: string; name: string }) => setServer({ id, name }),
    [],
  );
  return { show, dialog: <ReachabilityDialog server={server} onClose={() => setServer(null)} /> };
}

/** A market card's "Where it works": the server's countries and networks, fetched on opening. */
export function ReachabilityDialog({ server, onClose }: ReachabilityDialogProps) {
  const { t } = useT();
  return (
    <Dialog
      open={server !== null}
      onClose={onClose}
      title={server ? t('reach.dialog.title', { name: server.name }) : ''}
      description={t('reach.dialog.description')}
      size="lg"
      data-testid="reach-dialog"
    >
      {server && <ReachabilityBody serverId={server.id} name={server.name} onClose={onClose} />}
    </Dialog>
  );
}

function ReachabilityBody({
  serverId,
  name,
  onClose,
}: {
  serverId: string;
  name: string;
  onClose: () => void;
}) {
  const { t } = useT();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getServerReachability(serverId, controller.signal)
      .then((response) => setLoaded({ status: 'ready', rows: response.rows, at: Date.now() }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Failed to load where the server works', error);
        setLoaded({ status: 'error' });
      });
    return () => controller.abort();
  }, [serverId, attempt]);

  return (
    <div className="stack">
      {loaded.status === 'loading' ? (
        <div className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('reach.dialog.loading')}</span>
        </div>
      ) : loaded.status === 'error' ? (
        <>
          <Banner tone="error" data-testid="reach-error">
            {t('reach.dialog.failed')}
          </Banner>
          <div>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                setLoaded({ status: 'loading' });
                setAttempt((value) => value + 1);
              }}
            >
              {t('market.tryAgain')}
            </Button>
          </div>
        </>
      ) : (
        <ReachabilityTable
          rows={loaded.rows}
          now={loaded.at}
          caption={t('reach.dialog.title', { name })}
        />
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          {t('reach.dialog.close')}
        </Button>
      </div>
    </div>
  );
}
