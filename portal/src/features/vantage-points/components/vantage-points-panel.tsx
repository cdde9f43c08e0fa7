import type { VantagePoint } from '@scn/proto';
import { useCallback, useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useApiErrorMessage } from '../../../lib/api-error-message';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { asnLabel, countryName, relativeTime } from '../../../lib/reachability-display';
import { deleteProbe } from '../api/delete-probe';
import { getProbes } from '../api/get-probes';
import { ProbeTokenForm } from './probe-token-form';
import '../../../components/reachability/reachability.css';
import '../vantage-points.css';

type Loaded =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; probes: VantagePoint[]; at: number };

/**
 * Vantage points (docs/reachability.md): a computer or phone inside a network that tests servers
 * from there (`scn-agent probe`). Any signed-in account may run one, so both dashboards show this.
 */
export function VantagePointsPanel({ ownerUuid }: { ownerUuid: string }) {
  const { t } = useT('vantage');
  const errorMessage = useApiErrorMessage();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [deleting, setDeleting] = useState<VantagePoint | null>(null);
  const [creating, setCreating] = useState(false);

  const fetchState = useCallback(
    (signal?: AbortSignal): Promise<Loaded> =>
      getProbes(ownerUuid, signal).then(
        (probes): Loaded => ({ status: 'ready', probes, at: Date.now() }),
        (error: unknown): Loaded => ({
          status: 'error',
          message: errorMessage(error, t('list.loadFailed')),
        }),
      ),
    [ownerUuid, errorMessage, t],
  );
  const load = useCallback(() => fetchState().then(setLoaded), [fetchState]);

  useEffect(() => {
    const controller = new AbortController();
    void fetchState(controller.signal).then((next) => {
      if (!controller.signal.aborted) setLoaded(next);
    });
    return () => controller.abort();
  }, [fetchState]);

  return (
    <section
      className="card vantage-points"
      aria-labelledby="vantage-points-title"
      data-testid="vantage-points"
    >
      <div className="vantage-points__header">
        <h2 id="vantage-points-title">{t('title')}</h2>
        <Button variant="secondary" size="sm" onClick={() => void load()}>
          {t('refresh')}
        </Button>
      </div>
      <p className="small muted">{t('lead')}</p>
      {creating ? (
        <ProbeTokenForm ownerUuid={ownerUuid} />
      ) : (
        <div>
          <Button
            variant="primary"
            size="sm"
            onClick={() => setCreating(true)}
            data-testid="vantage-add"
          >
            {t('add')}
          </Button>
        </div>
      )}
      {loaded.status === 'loading' ? (
        <div className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('list.loading')}</span>
        </div>
      ) : loaded.status === 'error' ? (
        <Banner tone="error" data-testid="vantage-error">
          {loaded.message}
        </Banner>
      ) : loaded.probes.length === 0 ? (
        <p className="muted" data-testid="vantage-empty">
          {t('list.empty')}
        </p>
      ) : (
        <ProbeList probes={loaded.probes} now={loaded.at} onDelete={setDeleting} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('delete.title')}
        confirmLabel={t('delete.confirm')}
        busyLabel={t('delete.busy')}
        variant="danger"
        fallbackError={t('delete.failed')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await deleteProbe(ownerUuid, deleting.id);
          } catch (error) {
            throw new Error(errorMessage(error, t('delete.failed')));
          }
          await load();
        }}
        data-testid="vantage-delete-dialog"
      >
        <p>{t('delete.text', { name: deleting?.name ?? '' })}</p>
      </ConfirmDialog>
    </section>
  );
}

function ProbeList({
  probes,
  now,
  onDelete,
}: {
  probes: readonly VantagePoint[];
  now: number;
  onDelete: (probe: VantagePoint) => void;
}) {
  const { t, locale } = useT('vantage');
  return (
    <div className="reach-table-wrap">
      <table className="data-table reach-table" data-testid="vantage-list">
        <caption className="sr-only">{t('list.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('list.name')}</th>
            <th scope="col">{t('list.network')}</th>
            <th scope="col">{t('list.lastSeen')}</th>
            <th scope="col">{t('list.testsLastHour')}</th>
            <th scope="col">
              <span className="sr-only">{t('list.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {probes.map((probe) => {
            const network = asnLabel(probe.asn, probe.asnName);
            return (
              <tr key={probe.id} data-testid="vantage-row" data-probe-id={probe.id}>
                <td>
                  <bdi>{probe.name}</bdi>
                </td>
                <td>
                  {probe.country ? countryName(probe.country, locale) : t('list.unknownPlace')}
                  {network && (
                    <>
                      {' · '}
                      <bdi dir="ltr">{network}</bdi>
                    </>
                  )}
                </td>
                <td>
                  {probe.lastSeenAt
                    ? relativeTime(probe.lastSeenAt, now, locale)
                    : t('list.neverSeen')}
                </td>
                <td>{formatNumber(probe.testsLastHour, locale)}</td>
                <td>
                  <Button
                    variant="danger"
                    size="sm"
                    onClick={() => onDelete(probe)}
                    aria-label={t('delete.label', { name: probe.name })}
                    data-testid="vantage-delete"
                  >
                    {t('delete.button')}
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
