import { z } from 'zod';
import { isCountryCode } from '../countries';
import { CONTROL_CHARACTERS, requestBody } from './common.contract';

export const NODES_ROUTES = {
  enrollmentTokens: '/api/nodes/enrollment-tokens',
  servers: (uuid: string) => `/nodes/servers/${encodeURIComponent(uuid)}`,
  uploadServer: '/nodes/upload-server',
  server: (uuid: string, serverId: string) =>
    `/nodes/server/${encodeURIComponent(uuid)}/${encodeURIComponent(serverId)}`,
  /** Node Configuration: the transport the node serves. */
  transport: (uuid: string, serverId: string) =>
    `/nodes/server/${encodeURIComponent(uuid)}/${encodeURIComponent(serverId)}/transport`,
  /** Node Configuration: the emergency port regeneration. */
  regeneratePort: (uuid: string, serverId: string) =>
    `/nodes/server/${encodeURIComponent(uuid)}/${encodeURIComponent(serverId)}/regenerate-port`,
} as const;

/**
 * The transports an agent node can serve, as `security/network`: VLESS + REALITY
 * + Vision over TCP (Xray only), or VLESS + TLS with the agent's self-signed certificate over
 * TCP, WebSocket (for a CDN in front) or gRPC (Xray only: v2ray 4.34 has no gRPC).
 */
export const NODE_TRANSPORTS = ['reality/tcp', 'tls/tcp', 'tls/ws', 'tls/grpc'] as const;
export type NodeTransport = (typeof NODE_TRANSPORTS)[number];

export const NODE_TRANSPORT_LABELS: Record<NodeTransport, string> = {
  'reality/tcp': 'REALITY + Vision over TCP',
  'tls/tcp': 'TLS over TCP',
  'tls/ws': 'TLS over WebSocket',
  'tls/grpc': 'TLS over gRPC',
};

/** Seconds between two emergency port regenerations of one server. */
export const PORT_REGENERATION_INTERVAL_S = 600;

export const INBOUND_PLAN_MESSAGES = {
  transportInvalid: `transport must be one of ${NODE_TRANSPORTS.join(', ')}`,
  transportUnsupported: (transport: string, core: string) =>
    `This node's core (${core}) cannot serve ${transport}`,
  transportChanged: 'Transport changed: the node applies it within a minute',
  confirmRequired:
    'Send confirm: true to regenerate the port (clients must refresh their subscription)',
  portRegenerated: (port: number) =>
    `New port ${port}: the node applies it within a minute; clients pick it up on their next subscription refresh`,
  regenerationTooSoon: (seconds: number) =>
    `The port was regenerated recently: try again in ${seconds} s`,
  notAnAgentNode: 'Only servers with the agent have a transport and port to change',
} as const;

export const changeTransportRequestSchema = requestBody({
  transport: z.enum(NODE_TRANSPORTS, { error: INBOUND_PLAN_MESSAGES.transportInvalid }),
});
export type ChangeTransportRequest = z.infer<typeof changeTransportRequestSchema>;

export const regeneratePortRequestSchema = requestBody({
  confirm: z.literal(true, { error: INBOUND_PLAN_MESSAGES.confirmRequired }),
});
export type RegeneratePortRequest = z.infer<typeof regeneratePortRequestSchema>;

export const NODES_MESSAGES = {
  tierRequired: 'Please select a VPS tier',
  /** Why a server is banned, on its card (the operator is also e-mailed once). */
  banned:
    'Banned: its reliability stayed below 95% for 14 days. It stays hidden from the market and earns no rewards; its frozen rewards went back to the reward pool and its subscribers were refunded.',
} as const;

export const enrollmentTokenResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  tier: z.string(),
  expiresAt: z.string(),
  installCommand: z.string(),
});
export type EnrollmentTokenResponse = z.infer<typeof enrollmentTokenResponseSchema>;

/** Where a node's TLS certificate comes from (VlessInbound.certificate_source). */
export const NODE_CERTIFICATE_SOURCES = ['acme', 'operator', 'self_signed'] as const;
export type NodeCertificateSource = (typeof NODE_CERTIFICATE_SOURCES)[number];

/** docs/product/records.md#dashboard-records "Server (node dashboard)", computed by the control plane. */
export const nodeServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(['agent', 'manual']),
  tier: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  uptime: z.number(),
  connections: z.number(),
  reliability: z.number(),
  available: z.boolean(),
  hidden: z.boolean(),
  banned: z.boolean(),
  ping: z.number().nullable(),
  coreState: z.string().nullable(),
  lastHealthUpdate: z.string().nullable(),
  created: z.string(),
  /** Manually added servers: the operator's own link (without client credentials for agent nodes). */
  vlessString: z.string().nullable(),
  /** ISO 3166-1 alpha-2, upper-case; null until the operator says where the server is. */
  country: z.string().nullable(),
  /** Free text such as "Frankfurt, Hetzner FSN1"; null when not given. */
  location: z.string().nullable(),
  /**
   * Added without the agent: listed free, with the operator's one UUID shared by
   * every client, and earning nothing.
   */
  sharedCredentials: z.boolean(),
  /**
   * Servers without the agent: the VLESS check the control plane runs through them every minute.
   * `pending`: no check has passed yet, so the server is not listed.
   */
  check: z
    .object({
      state: z.enum(['pending', 'passed', 'failed']),
      checkedAt: z.string().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
  /**
   * Agent nodes: the control plane's inbound plan (port or transport) changed and the node has
   * not yet reported serving it; links and feeds still show what it serves now.
   */
  inboundPending: z.boolean(),
  /**
   * Agent nodes serving TLS: the certificate as the node last reported it. `acme`: publicly
   * trusted (issued by a CA for `name`, renewed before `notAfter`); `operator`: the operator's own
   * files; `self_signed`: the agent's own, which only apps that read the links' pin accept
   * (`problem`: why no trusted one could be had, '' when none was asked for). Null with REALITY,
   * without TLS, before the first report, or from agents that do not say.
   */
  certificate: z
    .object({
      source: z.enum(NODE_CERTIFICATE_SOURCES),
      name: z.string(),
      notAfter: z.string().nullable(),
      problem: z.string(),
    })
    .nullable(),
});
export type NodeServer = z.infer<typeof nodeServerSchema>;
export type NodeCertificate = NonNullable<NodeServer['certificate']>;

/**
 * Node Configuration (docs/product/screens.md#dashboards-and-information-pages): everything the control plane knows about one server, for its
 * owner. The inbound parameters are those of the connection string (`type` is the transport).
 */
export const nodeServerDetailsSchema = nodeServerSchema.extend({
  /** The tier's client capacity (docs/product/constants.md#market-prices-and-limits); null for manually added servers. */
  maxClients: z.number().nullable(),
  agentVersion: z.string().nullable(),
  inbound: z
    .object({
      security: z.string(),
      sni: z.string(),
      fp: z.string(),
      pbk: z.string(),
      sid: z.string(),
      flow: z.string(),
      type: z.string(),
      /** ws path and gRPC service name ('' when the transport has none). */
      path: z.string(),
      serviceName: z.string(),
      /** The self-signed certificate's SHA-256 (hex), the links' `pcs` pin; '' without one. */
      certificateSha256: z.string(),
      /** The plan revision the node serves. */
      planRevision: z.string(),
    })
    .nullable(),
  /**
   * Agent nodes: what the control plane asks the node to serve (its persistent port and
   * transport), the transports its core offers, and when the port may next be regenerated.
   */
  plan: z
    .object({
      port: z.number().nullable(),
      transport: z.enum(NODE_TRANSPORTS).nullable(),
      revision: z.string(),
      core: z.string().nullable(),
      transports: z.array(z.enum(NODE_TRANSPORTS)),
      regenerableAt: z.string().nullable(),
    })
    .nullable(),
  hardware: z
    .object({
      os: z.string(),
      osRelease: z.string(),
      arch: z.string(),
      cpuCores: z.number(),
      cpuModel: z.string(),
      cpuGhz: z.number(),
      ramBytes: z.number(),
      diskBytes: z.number(),
    })
    .nullable(),
  /** Client UUIDs allowed on the server now (what the control plane pushes). */
  allowedClients: z.number(),
  /** The allowed set's version the control plane pushes, and the one the node last applied. */
  clientSetVersion: z.string(),
  appliedClientSetVersion: z.string(),
  updated: z.string(),
});
export type NodeServerDetails = z.infer<typeof nodeServerDetailsSchema>;

export const nodeServerDetailsResponseSchema = z.object({
  success: z.literal(true),
  server: nodeServerDetailsSchema,
});
export type NodeServerDetailsResponse = z.infer<typeof nodeServerDetailsResponseSchema>;

export const SERVER_SETTINGS_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 100 characters long',
  nameInvalid: 'Name must be plain text on one line',
  countryInvalid: 'Country must be a two-letter ISO 3166-1 code such as DE or US',
  locationTooLong: 'Location must be at most 100 characters long',
  locationInvalid: 'Location must be plain text on one line',
  nothingToUpdate: 'Nothing to update: send name, country or location',
  updated: 'Server settings saved',
} as const;

export const SERVER_NAME_MAX = 100;
export const SERVER_LOCATION_MAX = 100;

/**
 * A server's country: ISO 3166-1 alpha-2. Surrounding blanks and lower case are forgiven
 * (`de` is stored as `DE`); anything that is not an assigned code is refused.
 */
export const serverCountrySchema = z
  .string({ error: SERVER_SETTINGS_MESSAGES.countryInvalid })
  .trim()
  .toUpperCase()
  // The length check is implied by the refine, but it is what makes the OpenAPI document a
  // nullable string: a bare nullable string came out as a list of types, read as an array.
  .length(2, SERVER_SETTINGS_MESSAGES.countryInvalid)
  .refine(isCountryCode, SERVER_SETTINGS_MESSAGES.countryInvalid);

/** A server's location: free text on one line, at most 100 characters; '' means none. */
export const serverLocationSchema = z
  .string({ error: 'Location must be a string' })
  .trim()
  .max(SERVER_LOCATION_MAX, SERVER_SETTINGS_MESSAGES.locationTooLong)
  .refine((text) => !CONTROL_CHARACTERS.test(text), SERVER_SETTINGS_MESSAGES.locationInvalid);

export const serverNameSchema = z
  .string({ error: 'Name must be a string' })
  .trim()
  .min(1, SERVER_SETTINGS_MESSAGES.nameRequired)
  .max(SERVER_NAME_MAX, SERVER_SETTINGS_MESSAGES.nameTooLong)
  .refine((text) => !CONTROL_CHARACTERS.test(text), SERVER_SETTINGS_MESSAGES.nameInvalid);

/**
 * docs/product/input-rules.md#dashboard-input: setup script generation requires a chosen tier. The wizard also names the server
 *; a token without a name gives the server a short one from its id.
 */
export const enrollmentTokenRequestSchema = requestBody({
  tier: z.enum(['tier1', 'tier2', 'tier3', 'tier4'], {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined
        ? NODES_MESSAGES.tierRequired
        : 'tier must be tier1, tier2, tier3 or tier4',
  }),
  name: serverNameSchema.optional(),
});
export type EnrollmentTokenRequest = z.infer<typeof enrollmentTokenRequestSchema>;

/**
 * Node Configuration: the owner renames a server or says where it is. Absent fields stay as
 * they are; `null` (or an empty location) clears country or location.
 */
export const updateServerRequestSchema = requestBody({
  name: serverNameSchema.optional(),
  country: serverCountrySchema.nullable().optional(),
  location: serverLocationSchema
    .nullable()
    .optional()
    .transform((text) => (text === '' ? null : text)),
}).refine(
  (body) => body.name !== undefined || body.country !== undefined || body.location !== undefined,
  SERVER_SETTINGS_MESSAGES.nothingToUpdate,
);
/** What the portal sends. */
export type UpdateServerRequest = z.input<typeof updateServerRequestSchema>;
/** What the control plane gets after validation (trimmed, upper-cased, '' as null). */
export type UpdateServerChanges = z.output<typeof updateServerRequestSchema>;

export const updateServerResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  server: nodeServerDetailsSchema,
});
export type UpdateServerResponse = z.infer<typeof updateServerResponseSchema>;

export const nodeServersResponseSchema = z.object({
  success: z.literal(true),
  servers: z.array(nodeServerSchema),
});
export type NodeServersResponse = z.infer<typeof nodeServersResponseSchema>;

export const UPLOAD_SERVER_MESSAGES = {
  vlessRequired: 'VLESS string is required',
  vlessInvalid: 'No valid VLESS connection string found',
  uploaded: 'Server uploaded successfully!',
  defaultName: 'My Network Server',
  /** What a server without the agent may be, and why it earns nothing. */
  unsupported:
    'Servers without the agent must be VLESS over TCP with security none or tls (no REALITY, no flow). Install the agent for other setups.',
  limit: (max: number) =>
    `You can add at most ${max} servers without the agent. Delete one, or install the agent (Quick Setup) to add more.`,
  addressRefused: (host: string, address: string, kind: string) =>
    host === address
      ? `This server cannot be added: ${address} is a ${kind} address. Only public addresses can be added.`
      : `This server cannot be added: ${host} resolves to ${address}, a ${kind} address. Only public addresses can be added.`,
  unresolvable: (host: string) =>
    `Could not resolve ${host}. Check the address in the VLESS string.`,
  checkFailed: (reason: string) =>
    `The server did not pass the VLESS check: ${reason}. Check the UUID, port and security in the VLESS string.`,
  sharedCredentials:
    'Free, shared credentials: every client gets your link with its one UUID, which cannot be revoked per client. Paid listings and earnings need the agent, which gives each client its own UUID and removes it when the subscription ends.',
} as const;

/**
 * docs/product/calls.md#dashboard-calls `nodes/upload-server`, without the fields the old browser used to set itself
 * (uptime, reliability): the control plane measures those.
 */
export const uploadServerRequestSchema = requestBody({
  uuid: z.string({ error: 'uuid is required' }).max(64),
  serverInfo: z.strictObject(
    {
      vlessString: z
        .string({ error: UPLOAD_SERVER_MESSAGES.vlessRequired })
        .trim()
        .min(1, UPLOAD_SERVER_MESSAGES.vlessRequired)
        .max(4096, UPLOAD_SERVER_MESSAGES.vlessInvalid),
      name: z.string().trim().max(100, 'Name must be at most 100 characters long').optional(),
    },
    {
      error: (issue: { code?: string; keys?: string[] }) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown field: serverInfo.${(issue.keys ?? []).join(', serverInfo.')}`
          : 'serverInfo must be an object',
    },
  ),
});
export type UploadServerRequest = z.infer<typeof uploadServerRequestSchema>;
