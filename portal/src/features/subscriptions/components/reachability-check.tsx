import type { Network } from '@scn/proto';
import { useState } from 'react';
import { Trans } from 'react-i18next';
import { proxy, useSnapshot } from 'valtio';
import { Button } from '../../../components/ui/button';
import { useApiErrorMessage } from '../../../lib/api-error-message';
import { useT } from '../../../lib/i18n/i18n';
import { networkText } from '../../../lib/reachability-display';
import { reportReachability } from '../api/report-reachability';
import { giveConsent, readConsent, reportFailure, withdrawConsent } from '../reachability-report';
import type { SubscriptionView } from '../store';
import { ReachabilityConsentDialog } from './reachability-consent-dialog';

/** Consent is this browser's, shared by every subscription card. */
const consent = proxy({
  givenAt: typeof window === 'undefined' ? null : readConsent(localStorage),
});

type RowResult =
  | { status: 'sending' }
  | { status: 'sent'; works: boolean; network: Network }
  | { status: 'error'; text: string };

interface PendingReport {
  serverId: string;
  works: boolean;
}

/**
 * The reachability check under a subscription (docs/reachability.md): "Which of these servers
 * work in your app right now?" with Works / Doesn't work from here per server. Nothing is sent
 * before the client agreed once in the consent dialog; the consent can be withdrawn here.
 */
export function ReachabilityCheck({
  ownerUuid,
  subscription,
}: {
  ownerUuid: string;
  subscription: SubscriptionView;
}) {
  const { t } = useT('client');
  const { givenAt } = useSnapshot(consent);
  const errorMessage = useApiErrorMessage();
  const [open, setOpen] = useState(false);
  const [results, setResults] = useState<Record<string, RowResult>>({});
  const [pending, setPending] = useState<PendingReport | null>(null);
  const panelId = `reach-check-${subscription.id}`;

  const send = async ({ serverId, works }: PendingReport) => {
    setResults((current) => ({ ...current, [serverId]: { status: 'sending' } }));
    let result: RowResult;
    try {
      const answer = await reportReachability(ownerUuid, serverId, works);
      result = { status: 'sent', works, network: answer.network };
    } catch (error) {
      const failure = reportFailure(error);
      const text =
        failure.kind === 'rateLimited'
          ? t('reach.rateLimited', { minutes: failure.minutes })
          : failure.kind === 'refused'
            ? errorMessage(error, t('reach.refused'))
            : t('reach.failed');
      result = { status: 'error', text };
    }
    setResults((current) => ({ ...current, [serverId]: result }));
  };

  const report = (serverId: string, works: boolean) => {
    if (consent.givenAt) void send({ serverId, works });
    else setPending({ serverId, works });
  };

  if (subscription.servers.length === 0) return null;
  return (
    <div className="reach-check" data-testid="reach-check">
      <button
        type="button"
        className="reach-check__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        data-testid="reach-check-toggle"
      >
        {t('reach.toggle')}
      </button>
      {open && (
        <div id={panelId} className="reach-check__panel">
          <p className="small">{t('reach.question')}</p>
          <ul className="reach-check__servers">
            {subscription.servers.map((server) => (
              <ReportRow
                key={server.id}
                name={server.name}
                result={results[server.id]}
                onReport={(works) => report(server.id, works)}
              />
            ))}
          </ul>
          {givenAt && (
            <p className="small muted" data-testid="reach-consent-given">
              {t('reach.consentGiven')}{' '}
              <button
                type="button"
                className="reach-check__withdraw"
                onClick={() => {
                  withdrawConsent(localStorage);
                  consent.givenAt = null;
                }}
                data-testid="reach-consent-withdraw"
              >
                {t('reach.withdraw')}
              </button>
            </p>
          )}
        </div>
      )}
      <ReachabilityConsentDialog
        open={pending !== null}
        onClose={() => setPending(null)}
        onAgree={() => {
          consent.givenAt = giveConsent(localStorage, new Date());
          const report = pending;
          setPending(null);
          if (report) void send(report);
        }}
      />
    </div>
  );
}

function ReportRow({
  name,
  result,
  onReport,
}: {
  name: string;
  result: RowResult | undefined;
  onReport: (works: boolean) => void;
}) {
  const { t, locale } = useT('client');
  const sending = result?.status === 'sending';
  const tagged = result?.status === 'sent' ? networkText(result.network, locale) : null;
  return (
    <li className="reach-check__row" data-testid="reach-check-row" data-server-name={name}>
      <span className="reach-check__name">{name}</span>
      <span className="reach-check__actions">
        <Button
          variant="secondary"
          size="sm"
          disabled={sending}
          onClick={() => onReport(true)}
          aria-label={t('reach.worksFor', { name })}
          data-testid="reach-report-works"
        >
          {t('reach.works')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={sending}
          onClick={() => onReport(false)}
          aria-label={t('reach.blockedFor', { name })}
          data-testid="reach-report-blocked"
        >
          {t('reach.blocked')}
        </Button>
      </span>
      {result && result.status !== 'sending' && (
        <p
          className={`small reach-check__result${result.status === 'error' ? ' reach-check__result--error' : ''}`}
          role={result.status === 'error' ? 'alert' : 'status'}
          data-testid="reach-report-result"
        >
          {result.status === 'error' ? (
            result.text
          ) : (
            <>
              {result.works ? t('reach.thanksWorks') : t('reach.thanksBlocked')}{' '}
              {tagged ? (
                <Trans
                  ns="client"
                  i18nKey="reach.taggedAs"
                  values={{ network: tagged }}
                  components={{ bdi: <bdi data-testid="reach-report-network" /> }}
                />
              ) : (
                t('reach.taggedUnknown')
              )}
            </>
          )}
        </p>
      )}
    </li>
  );
}
