import { type NodeServerDetails, VPS_TIERS } from '@scn/proto';
import type { ReactNode } from 'react';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatAddress, formatBytes, formatDateTime } from '../server-format';
import '../nodes.css';

function Fact({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** An inbound parameter: empty ones are shown as a dash, not left blank. */
function param(value: string): ReactNode {
  return value ? <code>{value}</code> : <span className="muted">-</span>;
}

/** What the control plane knows about the server, under the settings form. */
export function ServerFacts({ server }: { server: NodeServerDetails }) {
  const tier = VPS_TIERS.find((candidate) => candidate.id === server.tier);
  const agent = server.source === 'agent';
  const behind = BigInt(server.appliedClientSetVersion) < BigInt(server.clientSetVersion);
  const hardware = server.hardware;
  return (
    <div className="node-config__facts" data-testid="node-config-facts">
      <section aria-labelledby="node-config-server">
        <h3 id="node-config-server" className="node-config__heading">
          Server
        </h3>
        <dl className="node-config__list">
          <Fact label="Server ID" testId="node-config-id">
            <span className="node-config__id">
              <code>{server.id}</code>
              <CopyButton text={server.id} size="sm" variant="ghost" />
            </span>
          </Fact>
          <Fact label="Tier" testId="node-config-tier">
            {tier
              ? `${tier.id.replace('tier', 'Tier ')} (${tier.name}) · up to ${server.maxClients ?? tier.maxClients} clients`
              : 'Manual server (no tier)'}
          </Fact>
          <Fact label="Address" testId="node-config-address">
            <code>{formatAddress(server.host, server.port)}</code>
          </Fact>
          <Fact label={agent ? 'Enrolled' : 'Added'} testId="node-config-created">
            {formatDateTime(server.created)}
          </Fact>
          <Fact label="Last health update">
            {server.lastHealthUpdate ? formatDateTime(server.lastHealthUpdate) : 'Never'}
          </Fact>
        </dl>
      </section>

      <section aria-labelledby="node-config-agent">
        <h3 id="node-config-agent" className="node-config__heading">
          Agent and proxy core
        </h3>
        {agent ? (
          <dl className="node-config__list">
            <Fact label="Agent version" testId="node-config-agent-version">
              {server.agentVersion ?? 'unknown'}
            </Fact>
            <Fact label="Proxy core" testId="node-config-core">
              {server.coreState ?? 'no report yet'}
            </Fact>
            <Fact label="Allowed clients" testId="node-config-clients">
              {server.allowedClients}
              {server.maxClients !== null ? ` of ${server.maxClients}` : ''}
            </Fact>
            <Fact label="Client set" testId="node-config-client-set">
              {behind ? (
                <span className="node-tone node-tone--warning">
                  v{server.clientSetVersion} pushed, v{server.appliedClientSetVersion} applied: the
                  node is catching up
                </span>
              ) : (
                <span>v{server.appliedClientSetVersion} applied (up to date)</span>
              )}
            </Fact>
          </dl>
        ) : (
          <p className="small muted">
            Added with its VLESS string: no agent runs on it, so the network only checks that its
            address answers.
          </p>
        )}
      </section>

      <section aria-labelledby="node-config-inbound">
        <h3 id="node-config-inbound" className="node-config__heading">
          VLESS inbound
        </h3>
        {server.inbound ? (
          <dl
            className="node-config__list node-config__list--params"
            data-testid="node-config-inbound"
          >
            <Fact label="security">{param(server.inbound.security)}</Fact>
            <Fact label="sni">{param(server.inbound.sni)}</Fact>
            <Fact label="fp">{param(server.inbound.fp)}</Fact>
            <Fact label="pbk">{param(server.inbound.pbk)}</Fact>
            <Fact label="sid">{param(server.inbound.sid)}</Fact>
            <Fact label="flow">{param(server.inbound.flow)}</Fact>
            <Fact label="type">{param(server.inbound.type)}</Fact>
            {server.inbound.path && <Fact label="path">{param(server.inbound.path)}</Fact>}
            {server.inbound.serviceName && (
              <Fact label="serviceName">{param(server.inbound.serviceName)}</Fact>
            )}
            {server.inbound.certificateSha256 && (
              <Fact label="certificate pin (pcs)" testId="node-config-pin">
                <code className="node-config__id">{server.inbound.certificateSha256}</code>
              </Fact>
            )}
          </dl>
        ) : (
          <p className="small muted">Known after the node's first report.</p>
        )}
      </section>

      {agent && (
        <section aria-labelledby="node-config-hardware">
          <h3 id="node-config-hardware" className="node-config__heading">
            Hardware
          </h3>
          {hardware ? (
            <dl className="node-config__list" data-testid="node-config-hardware">
              <Fact label="System">
                {hardware.os} {hardware.osRelease && `(${hardware.osRelease})`} · {hardware.arch}
              </Fact>
              <Fact label="CPU">
                {hardware.cpuCores} {hardware.cpuCores === 1 ? 'core' : 'cores'}
                {hardware.cpuModel && ` · ${hardware.cpuModel}`}
                {hardware.cpuGhz > 0 && ` · ${hardware.cpuGhz} GHz`}
              </Fact>
              <Fact label="RAM">{formatBytes(hardware.ramBytes)}</Fact>
              <Fact label="Disk">{formatBytes(hardware.diskBytes)}</Fact>
            </dl>
          ) : (
            <p className="small muted">Not reported yet.</p>
          )}
        </section>
      )}
    </div>
  );
}
