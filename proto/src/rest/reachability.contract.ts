import { z } from 'zod';
import { CONTROL_CHARACTERS, requestBody } from './common.contract';

/**
 * Reachability: whether a server works from a country and network (ASN), measured by vantage
 * points (`scn-agent probe`) inside those networks and by clients' own reports
 * (docs/reachability.md).
 */

/** What a visitor's network knows of a server: works, known blocked, or not measured (fresh). */
export const REACHABILITY_STATES = ['works', 'blocked', 'unknown'] as const;
export type ReachabilityState = (typeof REACHABILITY_STATES)[number];

/** How a probe's test of one endpoint ended (ProbeResult.error_class). */
export const PROBE_ERROR_CLASSES = [
  'ok',
  'timeout',
  'refused',
  'reset',
  'unreachable',
  'tls_alert',
  'wrong_certificate',
  'not_vless',
  'closed',
  'vless_untested',
] as const;
export type ProbeErrorClass = (typeof PROBE_ERROR_CLASSES)[number];

/**
 * An operator's automatic port regeneration when a server becomes blocked somewhere: off, or at
 * most once per one of these intervals (seconds; the shortest is the emergency regeneration's
 * own limit, PORT_REGENERATION_INTERVAL_S).
 */
export const AUTO_REGENERATION_INTERVALS_S = [600, 3600, 21_600, 86_400] as const;

export const REACHABILITY_ROUTES = {
  /** The requester's own country and network, as the control plane sees them (public). */
  here: '/api/reachability/here',
  /** Public: a server's reachability per country and network (the server page's table). */
  server: (serverId: string) => `/data/servers/${encodeURIComponent(serverId)}/reachability`,
  /**
   * A client's report from their own apps (session; the account in the path must be the
   * session's; the server must be in one of their subscriptions).
   */
  report: (uuid: string) => `/api/clients/reachability/${encodeURIComponent(uuid)}`,
  /** The operator's servers: where each is blocked, and the automatic regeneration setting. */
  nodeServers: (uuid: string) => `/nodes/reachability/${encodeURIComponent(uuid)}`,
  autoRegenerate: (uuid: string, serverId: string) =>
    `/nodes/server/${encodeURIComponent(uuid)}/${encodeURIComponent(serverId)}/auto-regenerate`,
  /** Vantage points (any signed-in account may run one): enrollment tokens and the list. */
  probeTokens: (uuid: string) =>
    `/api/vantage-points/${encodeURIComponent(uuid)}/enrollment-tokens`,
  probes: (uuid: string) => `/api/vantage-points/${encodeURIComponent(uuid)}`,
  probe: (uuid: string, probeId: string) =>
    `/api/vantage-points/${encodeURIComponent(uuid)}/${encodeURIComponent(probeId)}`,
} as const;

export const REACHABILITY_MESSAGES = {
  consentRequired: 'Reports are sent only with your consent (consent: true)',
  serverNotSubscribed: 'You can report only servers of your own subscriptions',
  reported: 'Thank you: your report was recorded',
  intervalInvalid: `intervalS must be null (off) or one of ${AUTO_REGENERATION_INTERVALS_S.join(', ')}`,
  autoRegenerationSaved: 'Automatic port regeneration saved',
  probeNameInvalid: 'Name must be 1 to 100 characters on one line',
  probeDeleted: 'Vantage point deleted',
  probeNotFound: 'Vantage point not found',
} as const;

/** A country and network as the control plane places an address (GeoIP, docs/reachability.md). */
export const networkSchema = z.object({
  /** ISO 3166-1 alpha-2; null when the address is not in the database. */
  country: z.string().nullable(),
  /** Autonomous system number; null when unknown. */
  asn: z.number().nullable(),
  /** The network operator's name (e.g. "Iran Cell Service and Communication Company"). */
  asnName: z.string().nullable(),
});
export type Network = z.infer<typeof networkSchema>;

export const reachabilityHereResponseSchema = z.object({
  success: z.literal(true),
  network: networkSchema,
});

/** One country x network row of a server's reachability. */
export const reachabilityRowSchema = z.object({
  country: z.string(),
  asn: z.number(),
  asnName: z.string().nullable(),
  state: z.enum(REACHABILITY_STATES),
  /** 0 to 100: the weighted share of recent observations that found the server working. */
  score: z.number(),
  /** Independent observers (vantage points and reporting accounts) behind the estimate. */
  observers: z.number(),
  /** Vantage points among them. */
  probes: z.number(),
  /** ISO time of the latest observation. */
  measuredAt: z.string(),
  /** ISO time since when it has been blocked there; null when not blocked. */
  blockedSince: z.string().nullable(),
});
export type ReachabilityRow = z.infer<typeof reachabilityRowSchema>;

export const serverReachabilityResponseSchema = z.object({
  success: z.literal(true),
  serverId: z.string(),
  rows: z.array(reachabilityRowSchema),
});
export type ServerReachabilityResponse = z.infer<typeof serverReachabilityResponseSchema>;

export const reachabilityReportRequestSchema = requestBody({
  serverId: z.string().uuid(),
  /** true: works in my apps; false: does not work from here. */
  works: z.boolean(),
  consent: z.literal(true, { error: REACHABILITY_MESSAGES.consentRequired }),
});
export type ReachabilityReportRequest = z.infer<typeof reachabilityReportRequestSchema>;

export const reachabilityReportResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  network: networkSchema,
});

export const nodeReachabilityServerSchema = z.object({
  serverId: z.string(),
  name: z.string(),
  port: z.number().nullable(),
  /** null: off; else at most once per this many seconds. */
  autoRegenerateS: z.number().nullable(),
  /** ISO time of the last port regeneration (by hand or automatic). */
  portRegeneratedAt: z.string().nullable(),
  rows: z.array(reachabilityRowSchema),
});
export const nodeReachabilityResponseSchema = z.object({
  success: z.literal(true),
  servers: z.array(nodeReachabilityServerSchema),
});
export type NodeReachabilityResponse = z.infer<typeof nodeReachabilityResponseSchema>;

export const autoRegenerateRequestSchema = requestBody({
  intervalS: z
    .number()
    .nullable()
    .refine(
      (value) =>
        value === null || (AUTO_REGENERATION_INTERVALS_S as readonly number[]).includes(value),
      REACHABILITY_MESSAGES.intervalInvalid,
    ),
});

export const probeEnrollmentTokenRequestSchema = requestBody({
  name: z
    .string({ error: REACHABILITY_MESSAGES.probeNameInvalid })
    .trim()
    .min(1, REACHABILITY_MESSAGES.probeNameInvalid)
    .max(100, REACHABILITY_MESSAGES.probeNameInvalid)
    .refine((text) => !CONTROL_CHARACTERS.test(text), REACHABILITY_MESSAGES.probeNameInvalid),
});
export const probeEnrollmentTokenResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  expiresAt: z.string(),
  /** The one line to run on the vantage point. */
  command: z.string(),
});

export const vantagePointSchema = z.object({
  id: z.string(),
  name: z.string(),
  country: z.string().nullable(),
  asn: z.number().nullable(),
  asnName: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** Endpoints it tested in the last hour. */
  testsLastHour: z.number(),
});
export const vantagePointsResponseSchema = z.object({
  success: z.literal(true),
  probes: z.array(vantagePointSchema),
});
export type VantagePoint = z.infer<typeof vantagePointSchema>;
