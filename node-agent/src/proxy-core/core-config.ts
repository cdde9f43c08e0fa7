import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProxyCoreKind } from '@scn/proto';
import { ProxyCoreException } from './proxy-core.exception';
import type { VlessInboundSettings } from './proxy-core';

/** Tag of the VLESS inbound: HandlerService.AlterInbound addresses it by this name. */
export const VLESS_INBOUND_TAG = 'vless-in';
/** Tag of the API inbound, of its routing rule and of the `api` section. */
export const API_TAG = 'api';
export const CORE_CONFIG_FILE = 'core-config.json';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Destinations a client must not reach through the node unless explicitly allowed. */
const PRIVATE_CIDRS = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];
const LOOPBACK_CIDRS = ['127.0.0.0/8', '::1/128'];

export interface CoreConfigInput {
  kind: ProxyCoreKind;
  inbound: VlessInboundSettings;
  apiPort: number;
  allowedUuids: readonly string[];
  allowPrivateDestinations?: boolean;
}

/** The subset of the core's JSON config the agent writes (same schema for v2ray 4.34 and Xray). */
export interface CoreConfigJson {
  log: { loglevel: 'warning'; access: 'none' };
  api: { tag: string; services: string[] };
  stats: Record<string, never>;
  policy: { levels: Record<string, { statsUserUplink: boolean; statsUserDownlink: boolean }> };
  inbounds: CoreInboundJson[];
  outbounds: { tag: string; protocol: 'freedom' | 'blackhole' }[];
  routing: { rules: CoreRoutingRuleJson[] };
}

export interface CoreVlessClientJson {
  id: string;
  email: string;
  level: 0;
  flow?: string;
}

export interface CoreInboundJson {
  tag: string;
  listen: string;
  port: number;
  protocol: 'vless' | 'dokodemo-door';
  settings: Record<string, unknown>;
  streamSettings?: Record<string, unknown>;
}

export interface CoreRoutingRuleJson {
  type: 'field';
  inboundTag: string[];
  outboundTag: string;
  ip?: string[];
  port?: string;
}

/**
 * Lower-cases, de-duplicates and validates client UUIDs. The core keys users by email (which
 * it lower-cases) and one malformed id in the config file would keep the whole core from
 * starting, so a bad id is refused before it reaches the core.
 */
export function normalizeClientUuids(uuids: readonly string[]): string[] {
  const normalized = new Set<string>();
  for (const uuid of uuids) {
    const lower = uuid.trim().toLowerCase();
    if (!UUID_PATTERN.test(lower)) {
      throw new ProxyCoreException('invalid_client_uuid', `Not a client UUID: "${uuid}".`);
    }
    normalized.add(lower);
  }
  return [...normalized].sort();
}

/**
 * Builds the core's config: the VLESS inbound with the allowed clients (email = uuid, so the
 * stats counters are per client), the API on loopback, per-user stats, a freedom outbound.
 */
export function buildCoreConfig(input: CoreConfigInput): CoreConfigJson {
  const { kind, inbound, apiPort } = input;
  const clients: CoreVlessClientJson[] = normalizeClientUuids(input.allowedUuids).map((uuid) => ({
    id: uuid,
    email: uuid,
    level: 0,
    ...(inbound.flow ? { flow: inbound.flow } : {}),
  }));

  // Blocking the API port matters even on a public node: through the freedom outbound a client
  // could otherwise connect to 127.0.0.1:apiPort and add users of its own.
  const blockRules: CoreRoutingRuleJson[] = [
    {
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: LOOPBACK_CIDRS,
      port: String(apiPort),
      outboundTag: 'blocked',
    },
  ];
  if (!input.allowPrivateDestinations) {
    blockRules.push({
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: PRIVATE_CIDRS,
      outboundTag: 'blocked',
    });
  }

  return {
    // No access log: it would write every client's destinations to the operator's journal.
    log: { loglevel: 'warning', access: 'none' },
    api: { tag: API_TAG, services: ['HandlerService', 'StatsService'] },
    stats: {},
    policy: { levels: { '0': { statsUserUplink: true, statsUserDownlink: true } } },
    inbounds: [
      {
        tag: VLESS_INBOUND_TAG,
        listen: inbound.listen ?? '0.0.0.0',
        port: inbound.port,
        protocol: 'vless',
        settings: { clients, decryption: 'none' },
        streamSettings: buildStreamSettings(kind, inbound),
      },
      {
        tag: API_TAG,
        listen: '127.0.0.1',
        port: apiPort,
        protocol: 'dokodemo-door',
        settings: { address: '127.0.0.1' },
      },
    ],
    // The first outbound is the default route.
    outbounds: [
      { tag: 'direct', protocol: 'freedom' },
      { tag: 'blocked', protocol: 'blackhole' },
    ],
    routing: {
      rules: [{ type: 'field', inboundTag: [API_TAG], outboundTag: API_TAG }, ...blockRules],
    },
  };
}

function buildStreamSettings(
  kind: ProxyCoreKind,
  inbound: VlessInboundSettings,
): Record<string, unknown> {
  const network = inbound.network;
  switch (inbound.security) {
    case 'none':
      return { network, security: 'none' };
    case 'tls':
      if (!inbound.certificateFile || !inbound.keyFile) {
        throw new ProxyCoreException(
          'tls_needs_certificate',
          'A TLS inbound needs certificateFile and keyFile.',
        );
      }
      return {
        network,
        security: 'tls',
        tlsSettings: {
          ...(inbound.sni ? { serverName: inbound.sni } : {}),
          certificates: [{ certificateFile: inbound.certificateFile, keyFile: inbound.keyFile }],
        },
      };
    case 'reality':
      // Measured: v2ray 4.34 accepts `security: "reality"`, ignores it and serves plain,
      // unencrypted VLESS. Only Xray implements REALITY.
      if (kind !== 'xray') {
        throw new ProxyCoreException(
          'reality_needs_xray',
          `REALITY needs the Xray core; ${kind} would silently serve the inbound unencrypted.`,
        );
      }
      if (!inbound.realityPrivateKey) {
        throw new ProxyCoreException(
          'reality_needs_private_key',
          'A REALITY inbound needs realityPrivateKey.',
        );
      }
      if (!inbound.sni) {
        throw new ProxyCoreException('reality_needs_sni', 'A REALITY inbound needs sni.');
      }
      return {
        network,
        security: 'reality',
        realitySettings: {
          dest: inbound.realityDest ?? `${inbound.sni}:443`,
          serverNames: [inbound.sni],
          privateKey: inbound.realityPrivateKey,
          shortIds: [inbound.sid ?? ''],
        },
      };
  }
}

/**
 * Writes the config into workDir (created 0700) as a 0600 file, atomically: the core may be
 * restarted by the supervisor at any moment and must never read a half-written file.
 */
export async function writeCoreConfig(workDir: string, config: CoreConfigJson): Promise<string> {
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  const target = path.join(workDir, CORE_CONFIG_FILE);
  const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile is masked by the umask.
  await chmod(temporary, 0o600);
  await rename(temporary, target);
  return target;
}
