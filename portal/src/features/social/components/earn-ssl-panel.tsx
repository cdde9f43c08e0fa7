import { type CheckSharesResponse, formatSsl, SHARE_PLATFORM_NAMES } from '@scn/proto';
import { useCallback, useEffect, useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { checkShares } from '../api/check-shares';
import { regionBlocked } from '../share-flow';
import { RegionBlockedDialog, ShareDialog } from './share-dialog';
import '../social.css';

export interface EarnSslPanelProps {
  userUuid: string;
}

type Load =
  | { status: 'loading' }
  | { status: 'ready'; data: CheckSharesResponse }
  | { status: 'error'; message: string };

/**
 * Earn SSL on both dashboards (spec 01 §2, spec 02 §2): what is pending from shares and the
 * button that opens the share modal, or the 'Feature Unavailable' modal when the browser's time
 * zone is one of the blocked regions.
 */
export function EarnSslPanel({ userUuid }: EarnSslPanelProps) {
  const titleId = useId();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [open, setOpen] = useState<'share' | 'blocked' | null>(null);

  const reload = useCallback(() => {
    checkShares(userUuid)
      .then((data) => setLoad({ status: 'ready', data }))
      .catch((error: unknown) =>
        setLoad({
          status: 'error',
          message: error instanceof Error ? error.message : String(error),
        }),
      );
  }, [userUuid]);

  useEffect(reload, [reload]);

  const data = load.status === 'ready' ? load.data : null;
  const pending = data?.shares.filter((s) => s.status === 'pending') ?? [];

  return (
    <section className="card earn-ssl" aria-labelledby={titleId} data-testid="earn-ssl">
      <header className="earn-ssl__header">
        <div>
          <h2 id={titleId}>Earn SSL</h2>
          <p>Share our posts on X or Instagram: 1 SSL at prime time, 0.1 SSL otherwise.</p>
        </div>
        <Button
          variant="primary"
          data-testid="earn-ssl-open"
          onClick={() => setOpen(regionBlocked() ? 'blocked' : 'share')}
        >
          Earn SSL Tokens
        </Button>
      </header>
      {load.status === 'error' && <Banner tone="error">{load.message}</Banner>}
      {data && (
        <p className="earn-ssl__pending">
          Pending share rewards:{' '}
          <strong data-testid="earn-ssl-pending">{formatSsl(data.pendingRewardMicro)} SSL</strong>
        </p>
      )}
      {pending.length > 0 && (
        <ul className="earn-ssl__shares" data-testid="earn-ssl-shares">
          {pending.map((share) => (
            <li key={share.id}>
              {SHARE_PLATFORM_NAMES[share.platform]}: {formatSsl(share.rewardMicro)} SSL
              {share.isPrimeTime ? ' (prime time)' : ''}, paid after{' '}
              {new Date(share.paysAt).toLocaleString()} if the post is still up
            </li>
          ))}
        </ul>
      )}
      <ShareDialog
        open={open === 'share'}
        onClose={() => setOpen(null)}
        userUuid={userUuid}
        available={data?.availablePlatforms ?? null}
        onRecorded={reload}
      />
      <RegionBlockedDialog open={open === 'blocked'} onClose={() => setOpen(null)} />
    </section>
  );
}
