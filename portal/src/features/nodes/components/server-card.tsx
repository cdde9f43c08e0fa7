import type { NodeServer } from '@scn/proto';
import { VPS_TIERS } from '@scn/proto';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { pingTone, reliabilityTone } from '../../../lib/server-display';
import {
  coreStateText,
  formatAddress,
  formatDateTime,
  formatPercent,
  formatPlace,
  formatRelative,
  formatUptimeText,
  tierName,
} from '../server-format';
import { ServerCertificate } from './server-certificate';
import { ServerTrafficChart } from './server-traffic-chart';
import { ReliabilityChart } from './reliability-chart';
import '../nodes.css';

export interface ServerCardProps {
  ownerUuid: string;
  server: NodeServer;
  now: number;
  onDelete: (server: NodeServer) => void;
  onConfigure: (server: NodeServer) => void;
  /** docs/product/screens.md#the-shell-and-the-market-screens: the Promote Server modal (composed by the app). */
  onPromote?: (server: NodeServer) => void;
}

/** One server of the node dashboard with every field of docs/product/screens.md#dashboards-and-information-pages the control plane knows. */
export function ServerCard({
  ownerUuid,
  server,
  now,
  onDelete,
  onConfigure,
  onPromote,
}: ServerCardProps) {
  const { t, locale } = useT('node');
  const tier = VPS_TIERS.find((candidate) => candidate.id === server.tier);
  const place = formatPlace(server.country, server.location, locale, t);
  const address = formatAddress(server.host, server.port);
  const titleId = `server-${server.id}-name`;
  return (
    <article
      className="card node-server"
      aria-labelledby={titleId}
      data-testid="server-card"
      data-server-id={server.id}
    >
      <header className="node-server__header">
        <div>
          <h3 id={titleId} className="node-server__name">
            {server.name}
          </h3>
          <p className="node-server__address small muted" data-testid="server-address">
            {address ? <bdi dir="ltr">{address}</bdi> : t('card.waitingForReport')}
          </p>
          {place && (
            <p className="node-server__place small muted" data-testid="server-place">
              {place}
            </p>
          )}
        </div>
        <ServerBadges server={server} />
      </header>
      {server.check && <ManualCheck check={server.check} now={now} />}
      {server.certificate && <ServerCertificate certificate={server.certificate} />}
      {server.banned && (
        <p className="small node-tone--danger" data-testid="server-banned-reason">
          {t('card.banned')}
        </p>
      )}
      <dl className="node-server__stats">
        <div>
          <dt>{t('card.reliability')}</dt>
          <dd
            className={`node-tone node-tone--${reliabilityTone(server.reliability)}`}
            data-testid="server-reliability"
          >
            {formatPercent(server.reliability, locale)}
          </dd>
        </div>
        <div>
          <dt>{t('card.uptime')}</dt>
          <dd data-testid="server-uptime">{formatUptimeText(server.uptime, locale, t)}</dd>
        </div>
        <div>
          <dt>{t('card.connections')}</dt>
          <dd data-testid="server-connections">{formatNumber(server.connections, locale)}</dd>
        </div>
        <div>
          <dt>{t('card.ping')}</dt>
          <dd
            className={
              server.ping === null ? 'muted' : `node-tone node-tone--${pingTone(server.ping)}`
            }
          >
            {server.ping === null
              ? t('card.notAvailable')
              : t('card.pingValue', { ms: formatNumber(server.ping, locale) })}
          </dd>
        </div>
        <div>
          <dt>{t('card.lastHealthUpdate')}</dt>
          <dd
            title={
              server.lastHealthUpdate ? formatDateTime(server.lastHealthUpdate, locale) : undefined
            }
          >
            {formatRelative(server.lastHealthUpdate, now, locale, t)}
          </dd>
        </div>
        <div>
          <dt>{t('card.created')}</dt>
          <dd>{formatDateTime(server.created, locale)}</dd>
        </div>
      </dl>
      <ReliabilityChart
        ownerUuid={ownerUuid}
        serverId={server.id}
        serverName={server.name}
        refreshKey={now}
      />
      <ServerTrafficChart ownerUuid={ownerUuid} serverId={server.id} refreshKey={now} />
      {server.vlessString && (
        <div className="node-server__link">
          <code dir="ltr" data-testid="server-vless">
            {server.vlessString}
          </code>
          <CopyButton text={server.vlessString} />
        </div>
      )}
      <footer className="node-server__footer">
        <span className="small muted">
          {tier ? tierName(tier, t, locale) : t('card.manualServer')}
          {server.coreState
            ? ` · ${t('card.coreState', { state: coreStateText(server.coreState, t) })}`
            : ''}
        </span>
        <span className="node-server__actions">
          {onPromote && (
            <Button
              variant="primary"
              size="sm"
              onClick={() => onPromote(server)}
              aria-label={t('card.promoteLabel', { name: server.name })}
              data-testid="server-promote"
            >
              {t('card.promote')}
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => onConfigure(server)}
            aria-label={t('card.configureLabel', { name: server.name })}
          >
            {t('card.configure')}
          </Button>
          <Button
            variant="danger"
            size="sm"
            onClick={() => onDelete(server)}
            aria-label={t('card.deleteLabel', { name: server.name })}
            data-testid="server-delete"
          >
            {t('card.delete')}
          </Button>
        </span>
      </footer>
    </article>
  );
}

/** Status badges: banned or (un)available, hidden, a plan not yet served, shared credentials. */
function ServerBadges({ server }: { server: NodeServer }) {
  const { t, locale } = useT('node');
  return (
    <div className="node-server__badges" data-testid="server-badges">
      {server.banned ? (
        <span className="badge badge--danger">{t('card.badge.banned')}</span>
      ) : server.available ? (
        <span className="badge badge--success">{t('card.badge.available')}</span>
      ) : (
        <span className="badge badge--danger">{t('card.badge.unavailable')}</span>
      )}
      {server.hidden && !server.banned && (
        <span
          className="badge badge--warning"
          title={t('card.badge.hiddenHint', { threshold: formatPercent(95, locale) })}
        >
          {t('card.badge.hidden')}
        </span>
      )}
      {server.inboundPending && (
        <span
          className="badge badge--warning"
          data-testid="server-pending"
          title={t('card.badge.pendingHint')}
        >
          {t('card.badge.pending')}
        </span>
      )}
      {server.sharedCredentials && (
        <span className="badge" data-testid="server-shared" title={t('card.sharedCredentials')}>
          {t('card.badge.shared')}
        </span>
      )}
    </div>
  );
}

/**
 * A server without the agent: whether the VLESS check through it passes (it is
 * listed only once one has), and why it is free and earns nothing.
 */
function ManualCheck({ check, now }: { check: NonNullable<NodeServer['check']>; now: number }) {
  const { t, locale } = useT('node');
  const when = check.checkedAt ? formatRelative(check.checkedAt, now, locale, t) : null;
  return (
    <div className="node-server__check small" data-testid="server-check">
      {check.state === 'pending' && (
        <p data-testid="server-check-state">{t('card.check.pending')}</p>
      )}
      {check.state === 'passed' && (
        <p data-testid="server-check-state">
          {when ? t('card.check.passedAt', { when }) : t('card.check.passed')}
        </p>
      )}
      {check.state === 'failed' && (
        <p className="node-tone node-tone--danger" data-testid="server-check-state">
          {when
            ? t('card.check.failedAt', { when, error: check.error ?? '' })
            : t('card.check.failed', { error: check.error ?? '' })}
        </p>
      )}
      <p className="muted" data-testid="server-shared-note">
        {t('card.sharedCredentials')}
      </p>
    </div>
  );
}
