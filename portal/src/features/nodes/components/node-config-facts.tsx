import { type NodeServerDetails, VPS_TIERS } from '@scn/proto';
import type { ReactNode } from 'react';
import { CopyButton } from '../../../components/ui/copy-button';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import {
  formatAddress,
  formatBinaryBytes,
  coreStateText,
  formatDateTime,
  tierName,
  tierNumber,
} from '../server-format';
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
  return value ? <code dir="ltr">{value}</code> : <span className="muted">-</span>;
}

/** What the control plane knows about the server, under the settings form. */
export function ServerFacts({ server }: { server: NodeServerDetails }) {
  const { t, locale } = useT('node');
  const tier = VPS_TIERS.find((candidate) => candidate.id === server.tier);
  const agent = server.source === 'agent';
  const behind = BigInt(server.appliedClientSetVersion) < BigInt(server.clientSetVersion);
  return (
    <div className="node-config__facts" data-testid="node-config-facts">
      <section aria-labelledby="node-config-server">
        <h3 id="node-config-server" className="node-config__heading">
          {t('facts.server')}
        </h3>
        <dl className="node-config__list">
          <Fact label={t('facts.serverId')} testId="node-config-id">
            <span className="node-config__id">
              <code dir="ltr">{server.id}</code>
              <CopyButton text={server.id} size="sm" variant="ghost" />
            </span>
          </Fact>
          <Fact label={t('facts.tier')} testId="node-config-tier">
            {tier
              ? t('facts.tierValue', {
                  tier: tierNumber(tier, t, locale),
                  name: tierName(tier, t, locale),
                  clients: server.maxClients ?? tier.maxClients,
                })
              : t('facts.manualTier')}
          </Fact>
          <Fact label={t('facts.address')} testId="node-config-address">
            <code dir="ltr">
              {formatAddress(server.host, server.port) ?? t('card.waitingForReport')}
            </code>
          </Fact>
          <Fact label={agent ? t('facts.enrolled') : t('facts.added')} testId="node-config-created">
            {formatDateTime(server.created, locale)}
          </Fact>
          <Fact label={t('facts.lastHealthUpdate')}>
            {server.lastHealthUpdate
              ? formatDateTime(server.lastHealthUpdate, locale)
              : t('time.never')}
          </Fact>
        </dl>
      </section>

      <section aria-labelledby="node-config-agent">
        <h3 id="node-config-agent" className="node-config__heading">
          {t('facts.agentHeading')}
        </h3>
        {agent ? (
          <dl className="node-config__list">
            <Fact label={t('facts.agentVersion')} testId="node-config-agent-version">
              {server.agentVersion ? <bdi>{server.agentVersion}</bdi> : t('facts.unknown')}
            </Fact>
            <Fact label={t('facts.proxyCore')} testId="node-config-core">
              {server.coreState ? coreStateText(server.coreState, t) : t('facts.noReport')}
            </Fact>
            <Fact label={t('facts.allowedClients')} testId="node-config-clients">
              {server.maxClients !== null
                ? t('facts.clientsOf', {
                    count: formatNumber(server.allowedClients, locale),
                    max: formatNumber(server.maxClients, locale),
                  })
                : formatNumber(server.allowedClients, locale)}
            </Fact>
            <Fact label={t('facts.clientSet')} testId="node-config-client-set">
              {behind ? (
                <span className="node-tone node-tone--warning">
                  {t('facts.clientSetBehind', {
                    pushed: formatNumber(BigInt(server.clientSetVersion), locale),
                    applied: formatNumber(BigInt(server.appliedClientSetVersion), locale),
                  })}
                </span>
              ) : (
                <span>
                  {t('facts.clientSetCurrent', {
                    applied: formatNumber(BigInt(server.appliedClientSetVersion), locale),
                  })}
                </span>
              )}
            </Fact>
          </dl>
        ) : (
          <p className="small muted">{t('facts.manualAgent')}</p>
        )}
      </section>

      <section aria-labelledby="node-config-inbound">
        <h3 id="node-config-inbound" className="node-config__heading">
          {t('facts.inbound')}
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
              <Fact label={t('facts.pin')} testId="node-config-pin">
                <code className="node-config__id" dir="ltr">
                  {server.inbound.certificateSha256}
                </code>
              </Fact>
            )}
          </dl>
        ) : (
          <p className="small muted">{t('facts.inboundUnknown')}</p>
        )}
      </section>

      {agent && <HardwareFacts hardware={server.hardware} />}
    </div>
  );
}

/** The machine as the agent reported it at enrollment. */
function HardwareFacts({ hardware }: { hardware: NodeServerDetails['hardware'] }) {
  const { t, locale } = useT('node');
  return (
    <section aria-labelledby="node-config-hardware">
      <h3 id="node-config-hardware" className="node-config__heading">
        {t('facts.hardware')}
      </h3>
      {hardware ? (
        <dl className="node-config__list" data-testid="node-config-hardware">
          <Fact label={t('facts.system')}>
            <bdi>
              {hardware.os} {hardware.osRelease && `(${hardware.osRelease})`} · {hardware.arch}
            </bdi>
          </Fact>
          <Fact label={t('facts.cpu')}>
            {t('facts.cores', { count: hardware.cpuCores })}
            {hardware.cpuModel && (
              <>
                {' · '}
                <bdi>{hardware.cpuModel}</bdi>
              </>
            )}
            {hardware.cpuGhz > 0 &&
              ` · ${t('facts.ghz', { value: formatNumber(hardware.cpuGhz, locale) })}`}
          </Fact>
          <Fact label={t('facts.ram')}>{formatBinaryBytes(hardware.ramBytes, locale, t)}</Fact>
          <Fact label={t('facts.disk')}>{formatBinaryBytes(hardware.diskBytes, locale, t)}</Fact>
        </dl>
      ) : (
        <p className="small muted">{t('facts.hardwareUnknown')}</p>
      )}
    </section>
  );
}
