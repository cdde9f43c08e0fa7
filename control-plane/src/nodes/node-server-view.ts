import {
  NODE_CERTIFICATE_SOURCES,
  type NodeServer,
  type NodeServerDetails,
  type NodeTransport,
  PORT_REGENERATION_INTERVAL_S,
  VPS_TIERS,
} from '@scn/proto';
import type { ReliabilityView } from '../reliability/reliability';
import type { ServerEntity } from './entities/server.entity';
import { planPending, transportsOf } from './inbound-plan';

export type ManualCheckState = 'pending' | 'passed' | 'failed';

/** The check state the node dashboard shows (listed only after a passing check). */
export function manualCheckState(server: ServerEntity): ManualCheckState | null {
  if (server.source !== 'manual') return null;
  if (server.lastReportAt === null) return server.checkError ? 'failed' : 'pending';
  return server.checkError ? 'failed' : 'passed';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function count(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** A server as the node dashboard lists it, with its reliability now (`view`). */
export function toNodeServer(server: ServerEntity, view: ReliabilityView): NodeServer {
  return {
    id: server.id,
    name: server.name,
    source: server.source,
    tier: server.tier,
    host: server.host,
    port: server.port,
    // docs/product/constants.md#market-prices-and-limits: uptime is shown in hours.
    uptime: Math.floor(Number(server.uptimeSeconds) / 3600),
    connections: server.activeClients,
    reliability: view.reliability,
    available: view.available,
    hidden: view.hidden,
    banned: view.banned,
    ping: server.pingMs,
    coreState: server.coreState,
    lastHealthUpdate: server.lastReportAt?.toISOString() ?? null,
    created: server.createdAt.toISOString(),
    vlessString: server.vlessString,
    country: server.country?.trim() || null,
    location: server.location,
    sharedCredentials: server.source === 'manual',
    check: checkOf(server),
    inboundPending: planPending(server),
    certificate: certificateOf(server),
  };
}

/** The certificate the node last reported serving (VlessInbound.certificate_*), as it said. */
export function certificateOf(server: ServerEntity): NodeServer['certificate'] {
  const inbound = server.inbound;
  if (server.source !== 'agent' || inbound.security !== 'tls') return null;
  const source = NODE_CERTIFICATE_SOURCES.find((s) => s === inbound.certificateSource);
  if (!source) return null;
  const notAfterMs = Number(inbound.certificateNotAfterMs);
  return {
    source,
    name: text(inbound.certificateName),
    notAfter: notAfterMs > 0 ? new Date(notAfterMs).toISOString() : null,
    problem: text(inbound.certificateProblem),
  };
}

/** Node Configuration's plan: what the node is asked to serve and what it could serve. */
function planView(server: ServerEntity): NodeServerDetails['plan'] {
  if (server.source !== 'agent') return null;
  const regenerableAt = server.portRegeneratedAt
    ? new Date(server.portRegeneratedAt.getTime() + PORT_REGENERATION_INTERVAL_S * 1000)
    : null;
  return {
    port: server.planPort,
    transport: server.planSecurity
      ? (`${server.planSecurity}/${server.planNetwork}` as NodeTransport)
      : null,
    revision: String(server.planRevision),
    core: server.core,
    transports: transportsOf(server.core),
    regenerableAt: regenerableAt?.toISOString() ?? null,
  };
}

function checkOf(server: ServerEntity): NodeServer['check'] {
  const state = manualCheckState(server);
  if (!state) return null;
  return {
    state,
    checkedAt: server.checkedAt?.toISOString() ?? null,
    error: server.checkError,
  };
}

/** A server as Node Configuration shows it: its agent, core, inbound, hardware and client set. */
export function toNodeServerDetails(
  server: ServerEntity,
  view: ReliabilityView,
  slots: { allowed: number; version: string },
): NodeServerDetails {
  const inbound = server.inbound;
  const hardware = server.hardware;
  return {
    ...toNodeServer(server, view),
    maxClients: VPS_TIERS.find((tier) => tier.id === server.tier)?.maxClients ?? null,
    agentVersion: server.agentVersion,
    // An agent node has no inbound until its first report.
    inbound:
      inbound && typeof inbound.security === 'string'
        ? {
            security: inbound.security,
            sni: text(inbound.sni),
            fp: text(inbound.fp),
            pbk: text(inbound.pbk),
            sid: text(inbound.sid),
            flow: text(inbound.flow),
            type: text(inbound.network) || 'tcp',
            path: text(inbound.path),
            serviceName: text(inbound.serviceName),
            certificateSha256: text(inbound.certificateSha256),
            planRevision: text(inbound.planRevision) || '0',
          }
        : null,
    plan: planView(server),
    hardware: hardware
      ? {
          os: text(hardware.os),
          osRelease: text(hardware.osRelease),
          arch: text(hardware.arch),
          cpuCores: count(hardware.cpuCores),
          cpuModel: text(hardware.cpuModel),
          cpuGhz: count(hardware.cpuGhz),
          ramBytes: count(hardware.ramBytes),
          diskBytes: count(hardware.diskBytes),
        }
      : null,
    allowedClients: slots.allowed,
    clientSetVersion: slots.version,
    appliedClientSetVersion: String(server.appliedClientSetVersion),
    updated: server.updatedAt.toISOString(),
  };
}
