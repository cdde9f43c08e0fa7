import type { NodeServer } from '@scn/proto';
import { NODES_MESSAGES, UPLOAD_SERVER_MESSAGES, VPS_TIERS } from '@scn/proto';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatUptime, pingTone, reliabilityTone } from '../../../lib/server-display';
import { formatAddress, formatDateTime, formatPlace, formatRelative } from '../server-format';
import { ServerTrafficChart } from './server-traffic-chart';
import { ReliabilityChart } from './reliability-chart';
import '../nodes.css';

export interface ServerCardProps {
  ownerUuid: string;
  server: NodeServer;
  now: number;
  onDelete: (server: NodeServer) => void;
  onConfigure: (server: NodeServer) => void;
  /** spec 01 §2: the Promote Server modal (composed by the app). */
  onPromote?: (server: NodeServer) => void;
}

/** One server of the node dashboard with every field of spec 02 §2 the control plane knows. */
export function ServerCard({
  ownerUuid,
  server,
  now,
  onDelete,
  onConfigure,
  onPromote,
}: ServerCardProps) {
  const tier = VPS_TIERS.find((candidate) => candidate.id === server.tier);
  const place = formatPlace(server.country, server.location);
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
            {formatAddress(server.host, server.port)}
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
      {server.banned && (
        <p className="small node-tone--danger" data-testid="server-banned-reason">
          {NODES_MESSAGES.banned}
        </p>
      )}
      <dl className="node-server__stats">
        <div>
          <dt>Reliability</dt>
          <dd
            className={`node-tone node-tone--${reliabilityTone(server.reliability)}`}
            data-testid="server-reliability"
          >
            {server.reliability}%
          </dd>
        </div>
        <div>
          <dt>Uptime</dt>
          <dd data-testid="server-uptime">{formatUptime(server.uptime)}</dd>
        </div>
        <div>
          <dt>Connections</dt>
          <dd data-testid="server-connections">{server.connections}</dd>
        </div>
        <div>
          <dt>Ping</dt>
          <dd
            className={
              server.ping === null ? 'muted' : `node-tone node-tone--${pingTone(server.ping)}`
            }
          >
            {server.ping === null ? 'n/a' : `${server.ping} ms`}
          </dd>
        </div>
        <div>
          <dt>Last health update</dt>
          <dd title={server.lastHealthUpdate ? formatDateTime(server.lastHealthUpdate) : undefined}>
            {formatRelative(server.lastHealthUpdate, now)}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(server.created)}</dd>
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
          <code data-testid="server-vless">{server.vlessString}</code>
          <CopyButton text={server.vlessString} />
        </div>
      )}
      <footer className="node-server__footer">
        <span className="small muted">
          {tier ? tier.name : 'Manual server'}
          {server.coreState ? ` · proxy core ${server.coreState.toLowerCase()}` : ''}
        </span>
        <span className="node-server__actions">
          {onPromote && (
            <Button
              variant="primary"
              size="sm"
              onClick={() => onPromote(server)}
              aria-label={`Promote ${server.name}`}
              data-testid="server-promote"
            >
              Promote
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => onConfigure(server)}
            aria-label={`Configure ${server.name}`}
          >
            Configure
          </Button>
          <Button variant="danger" size="sm" onClick={() => onDelete(server)}>
            Delete
          </Button>
        </span>
      </footer>
    </article>
  );
}

/** Status badges: banned or (un)available, hidden, a plan not yet served, shared credentials. */
function ServerBadges({ server }: { server: NodeServer }) {
  return (
    <div className="node-server__badges" data-testid="server-badges">
      {server.banned ? (
        <span className="badge badge--danger">Banned</span>
      ) : server.available ? (
        <span className="badge badge--success">Available</span>
      ) : (
        <span className="badge badge--danger">Unavailable</span>
      )}
      {server.hidden && !server.banned && (
        <span className="badge badge--warning" title="Reliability under 95%">
          Hidden
        </span>
      )}
      {server.inboundPending && (
        <span
          className="badge badge--warning"
          data-testid="server-pending"
          title="A new port or transport was pushed to the node; links and feeds switch once it reports serving it"
        >
          Pending
        </span>
      )}
      {server.sharedCredentials && (
        <span
          className="badge"
          data-testid="server-shared"
          title={UPLOAD_SERVER_MESSAGES.sharedCredentials}
        >
          Shared credentials
        </span>
      )}
    </div>
  );
}

/**
 * A server without the agent (issue 15 §4): whether the VLESS check through it passes (it is
 * listed only once one has), and why it is free and earns nothing.
 */
function ManualCheck({ check, now }: { check: NonNullable<NodeServer['check']>; now: number }) {
  const when = check.checkedAt ? formatRelative(check.checkedAt, now) : null;
  return (
    <div className="node-server__check small" data-testid="server-check">
      {check.state === 'pending' && (
        <p data-testid="server-check-state">
          Waiting for the first VLESS check: the server is listed once one passes.
        </p>
      )}
      {check.state === 'passed' && (
        <p data-testid="server-check-state">VLESS check passed{when ? ` (${when})` : ''}.</p>
      )}
      {check.state === 'failed' && (
        <p className="node-tone node-tone--danger" data-testid="server-check-state">
          Last VLESS check failed{when ? ` (${when})` : ''}: {check.error}
        </p>
      )}
      <p className="muted" data-testid="server-shared-note">
        {UPLOAD_SERVER_MESSAGES.sharedCredentials}
      </p>
    </div>
  );
}
