import { type CheckSharesResponse, SHARE_REWARD, sslToMicro } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { Suspense, useCallback, useEffect, useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { checkShares } from '../api/check-shares';
import { regionBlocked } from '../share-flow';
import { RegionBlockedDialog, ShareDialog } from './share-dialog';
import '../social.css';
import { messageOf } from '../../../lib/error-message';

export interface EarnSslPanelProps {
  userUuid: string;
}

type Load =
  | { status: 'loading' }
  | { status: 'ready'; data: CheckSharesResponse }
  | { status: 'error'; message: string };

/**
 * Earn SSL on both dashboards (docs/product/screens.md#the-shell-and-the-market-screens, docs/product/screens.md#dashboards-and-information-pages): what is pending from shares and the
 * button that opens the share modal, or the 'Feature Unavailable' modal when the browser's time
 * zone is one of the blocked regions. Its words wait for the `earn` catalogue here, so the rest
 * of the page never does.
 */
export function EarnSslPanel(props: EarnSslPanelProps) {
  return (
    <Suspense
      fallback={
        <section className="card earn-ssl" aria-busy="true">
          <span className="spinner" aria-hidden="true" />
        </section>
      }
    >
      <EarnSslPanelBody {...props} />
    </Suspense>
  );
}

function EarnSslPanelBody({ userUuid }: EarnSslPanelProps) {
  const { t, locale } = useT('earn');
  const titleId = useId();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [open, setOpen] = useState<'share' | 'blocked' | null>(null);

  const reload = useCallback(() => {
    checkShares(userUuid)
      .then((data) => setLoad({ status: 'ready', data }))
      .catch((error: unknown) =>
        setLoad({
          status: 'error',
          message: messageOf(error, String(error)),
        }),
      );
  }, [userUuid]);

  useEffect(reload, [reload]);

  const data = load.status === 'ready' ? load.data : null;
  const pending = data?.shares.filter((s) => s.status === 'pending') ?? [];
  const ssl = (micro: string | bigint) => formatMicroSsl(micro, locale, { decimals: 'cents' });

  return (
    <section className="card earn-ssl" aria-labelledby={titleId} data-testid="earn-ssl">
      <header className="earn-ssl__header">
        <div>
          <h2 id={titleId}>{t('social.panel.title')}</h2>
          <p>
            {t('social.panel.summary', {
              prime: formatMicroSsl(sslToMicro(SHARE_REWARD.primeTimeSsl), locale),
              normal: formatMicroSsl(sslToMicro(SHARE_REWARD.normalSsl), locale),
            })}
          </p>
        </div>
        <Button
          variant="primary"
          data-testid="earn-ssl-open"
          onClick={() => setOpen(regionBlocked() ? 'blocked' : 'share')}
        >
          {t('social.panel.open')}
        </Button>
      </header>
      {load.status === 'error' && <Banner tone="error">{load.message}</Banner>}
      {data && (
        <p className="earn-ssl__pending">
          {t('social.panel.pending')}{' '}
          <strong data-testid="earn-ssl-pending">{ssl(data.pendingRewardMicro)}</strong>
        </p>
      )}
      {pending.length > 0 && (
        <ul className="earn-ssl__shares" data-testid="earn-ssl-shares">
          {pending.map((share) => (
            <li key={share.id}>
              {t('social.panel.share', {
                platform: t(`social.platform.${share.platform}`),
                amount: ssl(share.rewardMicro),
                prime: share.isPrimeTime ? 'yes' : 'no',
                date: formatDate(share.paysAt, locale, { dateStyle: 'medium', timeStyle: 'short' }),
              })}
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
