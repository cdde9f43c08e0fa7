import { randomInt } from 'node:crypto';
import {
  coreDefaultSecurity,
  inboundUnsupportedReason,
  NODE_TRANSPORTS,
  type NodeTransport,
} from '@scn/proto';
import type {
  InboundCore,
  PlanNetwork,
  PlanSecurity,
  ServerEntity,
} from './entities/server.entity';

/**
 * The inbound plan (docs/product/screens.md#dashboards-and-information-pages port management and traffic obfuscation): what the
 * control plane asks a node to serve. Each machine gets a persistent port of its own at
 * enrollment, changed only by the operator's emergency regeneration; the transport is the core's
 * secure default (REALITY with Xray, TLS with v2ray) until the operator picks another.
 */
export interface InboundPlan {
  port: number;
  security: PlanSecurity;
  network: PlanNetwork;
  revision: string;
}

/**
 * Where a machine's port is drawn from: 20000-32767. Above the ports well-known services and
 * most installers use, and below Linux's ephemeral range (32768-60999), so the core's listener
 * never competes with the machine's own outgoing connections.
 */
export const PLAN_PORT_RANGE = { min: 20_000, max: 32_767 } as const;

/**
 * Ports in that range that well-known software listens on or that firewalls single out: never
 * drawn (MongoDB, RethinkDB, Minecraft, Synergy, Plex, Steam, DNP3, Usermin, Teamspeak files,
 * common game and P2P defaults).
 */
export const AVOIDED_PORTS: ReadonlySet<number> = new Set([
  20_000, 20_005, 22_222, 23_399, 24_800, 25_565, 25_575, 26_000, 27_000, 27_015, 27_016, 27_017,
  27_018, 27_019, 27_036, 28_015, 28_017, 30_033, 30_120, 31_337, 32_400, 32_469, 32_764,
]);

/** A random port of the range, never an avoided one nor `previous` (regeneration must move). */
export function randomPlanPort(previous: number | null = null): number {
  for (;;) {
    const port = randomInt(PLAN_PORT_RANGE.min, PLAN_PORT_RANGE.max + 1);
    if (!AVOIDED_PORTS.has(port) && port !== previous) return port;
  }
}

/**
 * The transports the operator may choose for a node: those its core serves (@scn/proto's rule,
 * which the agent enforces too). An agent with no core named enrolled before secure transports: v2ray.
 */
export function transportsOf(core: InboundCore | null): NodeTransport[] {
  return NODE_TRANSPORTS.filter((transport) => {
    const [security, network] = transport.split('/') as [PlanSecurity, PlanNetwork];
    return inboundUnsupportedReason(core ?? 'v2ray', security, network) === null;
  });
}

/** The core's secure default: REALITY + Vision with Xray, TLS with v2ray. */
export function defaultSecurity(core: InboundCore | null): PlanSecurity {
  return coreDefaultSecurity(core ?? 'v2ray');
}

/**
 * The plan of a new machine: the port it asked for (`--public-port`, or 443 where the machine has
 * it free: docs/security.md#what-dpi-sees) or a random one. Ports are per machine: any number of
 * machines may serve 443.
 */
export function initialPlan(core: InboundCore | null, requestedPort: number): InboundPlan {
  return {
    port: requestedPort > 0 ? requestedPort : randomPlanPort(),
    security: defaultSecurity(core),
    network: 'tcp',
    revision: '1',
  };
}

/** The stored plan of a server; null for one without (a manual server). */
export function planOf(
  server: Pick<ServerEntity, 'planPort' | 'planSecurity' | 'planNetwork' | 'planRevision'>,
): InboundPlan | null {
  if (server.planPort === null || server.planSecurity === null) return null;
  return {
    port: server.planPort,
    security: server.planSecurity,
    network: server.planNetwork,
    revision: String(server.planRevision),
  };
}

/**
 * Whether the node has not yet reported serving the current plan: its reported inbound names
 * an older revision (links and feeds follow the report, so they still show the old inbound).
 */
export function planPending(
  server: Pick<ServerEntity, 'source' | 'planRevision' | 'inbound'>,
): boolean {
  if (server.source !== 'agent') return false;
  const reported = /^\d+$/.test(server.inbound?.planRevision ?? '')
    ? BigInt(server.inbound.planRevision!)
    : 0n;
  return BigInt(server.planRevision) > reported;
}
