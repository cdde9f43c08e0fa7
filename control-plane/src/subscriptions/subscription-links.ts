import { buildVlessLink, parseVlessLink, type SubscriptionServer } from '@scn/proto';

/** What a connection string needs from a `servers` row. */
export interface LinkedServer {
  id: string;
  name: string;
  source: 'agent' | 'manual';
  host: string | null;
  port: number | null;
  /**
   * The reported VLESS inbound: security, sni, fp, pbk, sid, flow, network, path, serviceName,
   * certificateSha256 (agent/grpc/agent-messages.ts).
   */
  inbound: Record<string, string>;
  /** The agent's self-signed certificate (PEM) the inbound's certificateSha256 names. */
  certificatePem?: string | null;
  /** Manually added servers: the operator's own link. */
  vlessString: string | null;
  country: string | null;
  premium: boolean;
}

/**
 * The connection string of one server for one subscription: the node's reported address and
 * inbound parameters with the subscription's own uuid (which the node allows while the
 * subscription is active). '' while the node has not reported where clients dial it.
 *
 * Manually added servers run without our agent, so no uuid can be provisioned on them: their
 * link is the operator's own, as pasted (it cannot be revoked per subscription).
 */
export function connectionString(server: LinkedServer, vlessUuid: string): string {
  if (server.source === 'manual') {
    // Checked when it was uploaded; read back as stored (older rules accepted other values).
    const link = server.vlessString
      ? parseVlessLink(server.vlessString, { checkValues: false })
      : null;
    return link ? buildVlessLink({ ...link, name: server.name }) : '';
  }
  if (!server.host || !server.port) return '';
  const inbound = server.inbound;
  const security = inbound.security || 'none';
  const network = inbound.network || 'tcp';
  const params: Record<string, string> = {
    encryption: 'none',
    security,
    sni: inbound.sni ?? '',
    // A TLS client must look like a browser too (uTLS); REALITY's agents report theirs.
    fp: inbound.fp || (security === 'tls' ? 'chrome' : ''),
    pbk: inbound.pbk ?? '',
    sid: inbound.sid ?? '',
    flow: inbound.flow ?? '',
    type: network,
    path: network === 'ws' ? inbound.path || '/' : '',
    serviceName: network === 'grpc' ? (inbound.serviceName ?? '') : '',
    mode: network === 'grpc' ? 'gun' : '',
    // The self-signed certificate's pin (Xray share-link `pcs`, pinnedPeerCertSha256): the
    // client checks the leaf it is shown against it; never allowInsecure.
    pcs: security === 'tls' ? (inbound.certificateSha256 ?? '') : '',
  };
  return buildVlessLink({
    uuid: vlessUuid,
    // buildVlessLink brackets an IPv6 host (also one stored before hosts were canonical).
    host: server.host,
    port: server.port,
    name: server.name,
    // A node reports '' for what its inbound does not use: such a parameter is left out.
    params: Object.fromEntries(Object.entries(params).filter(([, value]) => value !== '')),
  });
}

export function subscriptionServers(
  servers: readonly LinkedServer[],
  vlessUuid: string,
): SubscriptionServer[] {
  return servers.map((server) => ({
    id: server.id,
    name: server.name,
    vlessString: connectionString(server, vlessUuid),
    host: server.host,
    port: server.port,
    country: server.country,
    isAdminServer: server.premium,
  }));
}

/** The uuid a connection string carries (the subscription's, or a manual server's own). */
export function linkUuid(link: string, fallback: string): string {
  return parseVlessLink(link, { checkValues: false })?.uuid ?? fallback;
}

/** `raw_<id>.txt`: one link per line (docs/product/calls.md#dashboard-calls). */
export function rawFile(links: readonly string[]): string {
  return links.filter(Boolean).join('\n') + '\n';
}

/**
 * `group_<id>.txt` and `/sub/<secret>`: base64 of the newline-joined links, the format v2rayN,
 * v2rayNG, Hiddify, Streisand and NekoBox import as a subscription.
 */
export function groupFile(links: readonly string[]): string {
  return Buffer.from(links.filter(Boolean).join('\n'), 'utf8').toString('base64');
}

/** docs/product/records.md#dashboard-records name: e.g. "Subscription (3 servers)". */
export function subscriptionName(serverCount: number): string {
  return `Subscription (${serverCount} server${serverCount === 1 ? '' : 's'})`;
}

/** The ids of a subscription's servers, in its order (for the node client sets). */
export function serverIds(servers: readonly { id: string }[]): string[] {
  return servers.map((server) => server.id);
}
