import type { NodeReachabilityResponse } from '@scn/proto';
import { useCallback, useEffect, useState } from 'react';
import { ReachabilityTable } from '../../../components/reachability/reachability-table';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { useApiErrorMessage } from '../../../lib/api-error-message';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { relativeTime } from '../../../lib/reachability-display';
import { onRealtime } from '../../../lib/realtime';
import { getNodeReachability } from '../api/get-node-reachability';
import { setAutoRegenerate } from '../api/set-auto-regenerate';
import {
  AUTO_REGENERATION_CHOICES,
  type AutoRegenerationChoice,
  blockedCount,
  choiceOf,
  intervalOf,
} from '../reachability-settings';
import '../nodes.css';

type ReachServer = NodeReachabilityResponse['servers'][number];

type Loaded =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; servers: ReachServer[]; at: number };

/**
 * The operator's "Reachability" section (docs/reachability.md): per server, where it is blocked
 * (first, red) and where it works, and the automatic port regeneration when it gets blocked.
 */
export function NodeReachability({ ownerUuid }: { ownerUuid: string }) {
  const { t } = useT('node');
  const errorMessage = useApiErrorMessage();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  const fetchState = useCallback(
    (signal?: AbortSignal): Promise<Loaded> =>
      getNodeReachability(ownerUuid, signal).then(
        (response): Loaded => ({ status: 'ready', servers: response.servers, at: Date.now() }),
        (error: unknown): Loaded => ({
          status: 'error',
          message: errorMessage(error, t('reach.loadFailed')),
        }),
      ),
    [ownerUuid, errorMessage, t],
  );
  const load = useCallback(() => void fetchState().then(setLoaded), [fetchState]);

  useEffect(() => {
    const controller = new AbortController();
    void fetchState(controller.signal).then((next) => {
      if (!controller.signal.aborted) setLoaded(next);
    });
    // A regeneration (by hand or automatic) changes the port: the servers' events refetch.
    const unsubscribe = onRealtime('server-list-updated', load);
    return () => {
      controller.abort();
      unsubscribe();
    };
  }, [fetchState, load]);

  return (
    <section
      className="card node-reach"
      aria-labelledby="node-reach-title"
      data-testid="node-reachability"
    >
      <div className="node-servers__header">
        <h2 id="node-reach-title">{t('reach.title')}</h2>
        <Button variant="secondary" size="sm" onClick={load}>
          {t('reach.refresh')}
        </Button>
      </div>
      <p className="small muted">{t('reach.lead')}</p>
      {loaded.status === 'loading' ? (
        <div className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('reach.loading')}</span>
        </div>
      ) : loaded.status === 'error' ? (
        <Banner tone="error" data-testid="node-reach-error">
          {loaded.message}
        </Banner>
      ) : loaded.servers.length === 0 ? (
        <p className="muted">{t('reach.noServers')}</p>
      ) : (
        <div className="node-reach__servers">
          {loaded.servers.map((server) => (
            <ReachServerCard
              key={server.serverId}
              ownerUuid={ownerUuid}
              server={server}
              now={loaded.at}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function ReachServerCard({
  ownerUuid,
  server,
  now,
}: {
  ownerUuid: string;
  server: ReachServer;
  now: number;
}) {
  const { t, locale } = useT('node');
  const errorMessage = useApiErrorMessage();
  const [choice, setChoice] = useState<AutoRegenerationChoice>(choiceOf(server.autoRegenerateS));
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const blocked = blockedCount(server.rows);
  const selectId = `auto-regen-${server.serverId}`;

  const save = async (next: AutoRegenerationChoice) => {
    const previous = choice;
    setChoice(next);
    setSaving(true);
    setOutcome(null);
    try {
      await setAutoRegenerate(ownerUuid, server.serverId, intervalOf(next));
      setOutcome({ tone: 'success', text: t('reach.auto.saved') });
    } catch (error) {
      setChoice(previous);
      setOutcome({ tone: 'error', text: errorMessage(error, t('reach.auto.saveFailed')) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <article
      className="node-reach__server"
      aria-labelledby={`${selectId}-name`}
      data-testid="node-reach-server"
      data-server-id={server.serverId}
    >
      <header className="node-reach__header">
        <h3 id={`${selectId}-name`} className="node-reach__name">
          {server.name}
        </h3>
        <span
          className={`badge ${blocked > 0 ? 'badge--danger' : 'badge--success'}`}
          data-testid="node-reach-blocked-count"
        >
          {blocked > 0 ? t('reach.blockedIn', { count: blocked }) : t('reach.notBlocked')}
        </span>
      </header>
      <ReachabilityTable
        rows={server.rows}
        now={now}
        caption={t('reach.tableCaption', { name: server.name })}
        data-testid="node-reach-table"
      />
      <div className="node-reach__auto">
        <label className="field" htmlFor={selectId}>
          <span className="field__label">{t('reach.auto.label')}</span>
        </label>
        <select
          id={selectId}
          className="input"
          value={choice}
          disabled={saving}
          onChange={(event) => void save(event.target.value as AutoRegenerationChoice)}
          data-testid="node-reach-auto"
        >
          {AUTO_REGENERATION_CHOICES.map((option) => (
            <option key={option} value={option}>
              {t(`reach.auto.options.${option}`)}
            </option>
          ))}
        </select>
        <p className="small muted" data-testid="node-reach-last-regeneration">
          {server.portRegeneratedAt
            ? t('reach.lastRegenerated', {
                when: relativeTime(server.portRegeneratedAt, now, locale),
              })
            : t('reach.neverRegenerated')}
          {server.port !== null &&
            ` · ${t('reach.port', { port: formatNumber(server.port, locale, { useGrouping: false }) })}`}
        </p>
        {outcome && (
          <p
            className={`small node-reach__outcome node-reach__outcome--${outcome.tone}`}
            role={outcome.tone === 'error' ? 'alert' : 'status'}
            data-testid="node-reach-auto-outcome"
          >
            {outcome.text}
          </p>
        )}
      </div>
    </article>
  );
}
