import { z } from 'zod';
import { isCountryCode } from '../countries';
import { CONTROL_CHARACTERS, requestBody } from './common.contract';
import { networkSchema, REACHABILITY_STATES } from './reachability.contract';

/** docs/product/calls.md#market-and-account-calls: the market's calls (public unless noted). */
export const MARKET_ROUTES = {
  servers: '/data/servers',
  countries: '/data/countries',
  stats: '/data/stats',
  /** Optional session: without one the lists are empty. */
  processingServers: '/data/processing-servers',
  /** Session of a client account required. */
  markServerProcessing: '/data/mark-server-processing',
  serverHealth: (serverId: string) => `/data/servers/${encodeURIComponent(serverId)}/health`,
  /** Session required (docs/product/calls.md#market-and-account-calls: bearer). */
  adminServers: '/admin-servers',
} as const;

/** docs/product/constants.md#market-prices-and-limits: server list page size 20; the control plane caps what a client may ask for. */
export const MARKET_PAGE_SIZE = 20;
export const MARKET_MAX_LIMIT = 100;
export const MARKET_MAX_PAGE = 1_000_000;
export const MARKET_SEARCH_MAX = 100;
/**
 * A text search counts its matches up to this many (docs/api.md "Market search"): past it the
 * answer says `totalCapped` and its pages end here, so no search costs more than this many
 * matches to count.
 */
export const MARKET_SEARCH_COUNT_CAP = 1_000;
/** docs/product/constants.md#market-prices-and-limits: connect cooldown 60 s. */
export const CONNECT_COOLDOWN_SECONDS = 60;

/** docs/product/screens.md#the-shell-and-the-market-screens: Sort By (Reliability, Ping, Uptime, Price); Order (Best First = desc, Worst First = asc). */
export const MARKET_SORTS = ['reliability', 'ping', 'uptime', 'price'] as const;
export type MarketSort = (typeof MARKET_SORTS)[number];
export const MARKET_ORDERS = ['desc', 'asc'] as const;
export type MarketOrder = (typeof MARKET_ORDERS)[number];

/** docs/product/records.md#market-and-wallet-records: a listed server's status; 'unavailable' and 'offline' count as disabled. */
export const MARKET_SERVER_STATUSES = ['online', 'unavailable', 'offline'] as const;
export type MarketServerStatus = (typeof MARKET_SERVER_STATUSES)[number];

/** docs/product/records.md#market-and-wallet-records: admin (premium) servers are shown in this country and location. */
export const PREMIUM_COUNTRY = 'Premium Network';
export const PREMIUM_LOCATION = 'Premium';
export const premiumServerName = (n: number) => `Premium Server ${n}`;

export const MARKET_MESSAGES = {
  searchTooLong: `Search must be at most ${MARKET_SEARCH_MAX} characters long`,
  searchInvalid: 'Search must be plain text on one line',
  countryInvalid: "Country must be a two-letter ISO 3166-1 code such as DE or US, or 'all'",
  sortInvalid: `Sort must be one of ${MARKET_SORTS.join(', ')}`,
  orderInvalid: 'Order must be desc (Best First) or asc (Worst First)',
  pageInvalid: `Page must be a whole number from 1 to ${MARKET_MAX_PAGE}`,
  limitInvalid: 'Limit must be a whole number of at least 1',
  serverNotFound: 'Server not found',
  serverIdRequired: 'serverId is required',
  clientUuidRequired: 'clientUUID is required',
  clientsOnly: 'Only client accounts can connect to servers',
  serverUnavailable: 'This server is not available for subscription',
  marked: 'Server marked as processing',
  premiumExempt: 'Premium servers have no connect cooldown',
  reachableInvalid: "reachable must be 'works' (only servers that work from your network) or 'all'",
} as const;

/** A query parameter that must be a whole number; `''` counts as absent. */
function wholeNumber(message: string, min: number, max: number) {
  return z
    .string({ error: message })
    .trim()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return undefined;
      if (!/^-?\d{1,16}$/.test(text)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      const value = Number(text);
      if (value < min || value > max) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return value;
    });
}

/**
 * `GET /data/servers` query (docs/product/calls.md#market-and-account-calls: country omitted when 'all', search, page, limit; plus
 * the filters' sort and order). What is refused with 400 and what is clamped:
 * - search: trimmed; over 100 characters or containing control characters: 400.
 * - country: 'all' or '' means none; lower case is forgiven; anything but an ISO code: 400.
 * - sort, order: anything but the listed values: 400 (absent: the default order).
 * - page: not a whole number, below 1 or above 1,000,000: 400; past the last page: empty list.
 * - limit: not a whole number or below 1: 400; above 100: clamped to 100 (default 20).
 * Unknown parameters (cache busters such as `t` or `timestamp`) are ignored.
 */
export const marketServersQuerySchema = z.object({
  search: z
    .string({ error: MARKET_MESSAGES.searchInvalid })
    .trim()
    .max(MARKET_SEARCH_MAX, MARKET_MESSAGES.searchTooLong)
    .refine((text) => !CONTROL_CHARACTERS.test(text), MARKET_MESSAGES.searchInvalid)
    .optional()
    .transform((text) => (text ? text : undefined)),
  country: z
    .string({ error: MARKET_MESSAGES.countryInvalid })
    .trim()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '' || text.toLowerCase() === 'all') return undefined;
      const code = text.toUpperCase();
      if (!isCountryCode(code)) {
        ctx.addIssue({ code: 'custom', message: MARKET_MESSAGES.countryInvalid });
        return z.NEVER;
      }
      return code;
    }),
  sort: z.enum(MARKET_SORTS, { error: MARKET_MESSAGES.sortInvalid }).optional(),
  order: z.enum(MARKET_ORDERS, { error: MARKET_MESSAGES.orderInvalid }).optional(),
  page: wholeNumber(MARKET_MESSAGES.pageInvalid, 1, MARKET_MAX_PAGE).transform((n) => n ?? 1),
  limit: wholeNumber(MARKET_MESSAGES.limitInvalid, 1, Number.MAX_SAFE_INTEGER).transform((n) =>
    Math.min(n ?? MARKET_PAGE_SIZE, MARKET_MAX_LIMIT),
  ),
  /** 'works': only servers measured working from the visitor's own country and network. */
  reachable: z
    .enum(['works', 'all'], { error: MARKET_MESSAGES.reachableInvalid })
    .optional()
    .transform((value) => (value === 'works' ? ('works' as const) : undefined)),
});
/** What the portal sends (all strings, all optional). */
export type MarketServersQueryInput = z.input<typeof marketServersQuerySchema>;
/** What the control plane gets after validation. */
export type MarketServersQuery = z.output<typeof marketServersQuerySchema>;

/** docs/product/records.md#market-and-wallet-records Server (listed): every field the card and the purchase flow read. */
export const marketServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The address clients dial (host name or IP). */
  ip: z.string(),
  /** ISO 3166-1 alpha-2, '' when unknown; 'Premium Network' for premium servers (docs/product/records.md#market-and-wallet-records). */
  country: z.string(),
  /** The ISO code, also for premium servers; null when the operator has not set one. */
  countryCode: z.string().nullable(),
  location: z.string(),
  isPromoted: z.boolean(),
  /** Admin (premium) server: run by the platform's operator account. */
  isAdminServer: z.boolean(),
  /** Free client slots: the tier's capacity minus the client UUIDs allowed on it. */
  availableUuids: z.number(),
  hasAvailable: z.boolean(),
  /** SSL per month; 0 = free (launch period, and servers without the agent). Premium servers 10. */
  price: z.number(),
  /** The same price in integer micro-SSL, as a decimal string. */
  priceMicro: z.string(),
  /** The owner's account uuid (docs/product/roles.md#who-may-use-the-market-and-wallet: nodeUUID, userUuid and authUuid all name the owner). */
  nodeUUID: z.string(),
  userUuid: z.string(),
  authUuid: z.string(),
  /** ISO time of the last report (or probe); null if never. */
  lastUpdated: z.string().nullable(),
  /** 0 to 100; 0 when unavailable (docs/product/states.md#market-and-account-states); 100 for premium servers. */
  reliability: z.number(),
  /** ms; null when not measured yet. `latency` is the same value. */
  ping: z.number().nullable(),
  latency: z.number().nullable(),
  /** Hours (docs/product/constants.md#market-prices-and-limits: 'New' when 0, else 'Xd Yh'). */
  uptime: z.number(),
  status: z.enum(MARKET_SERVER_STATUSES),
  isDisabled: z.boolean(),
  unavailable: z.boolean(),
  isStale: z.boolean(),
  serverType: z.enum(['agent', 'manual']),
  /**
   * Added without the agent: free, and every client gets the operator's one UUID,
   * which cannot be revoked per client. The card shows a "Shared credentials" badge.
   */
  sharedCredentials: z.boolean(),
  controls: z.object({
    connectButton: z.boolean(),
    price: z.number(),
    /** Why the connect button is off; null when it is on. */
    reason: z.string().nullable(),
  }),
  /**
   * Always '' on the market: a working link needs a client's own UUID, which only the
   * subscription calls hand out.
   */
  vlessLink: z.string(),
  vlessString: z.string(),
  host: z.string(),
  port: z.number().nullable(),
  security: z.string(),
  sni: z.string(),
  fp: z.string(),
  pbk: z.string(),
  sid: z.string(),
  flow: z.string(),
  /** Transport (tcp, ws, grpc, ...). */
  type: z.string(),
  /** Clients connected now (docs/product/screens.md#the-shell-and-the-market-screens: node operators see it on cards). */
  activeConnections: z.number(),
  /** Whether the session's client already subscribes to it (false without a session). */
  isSubscribed: z.boolean(),
  /** From the visitor's own country and network (their request address). */
  reachability: z.enum(REACHABILITY_STATES),
});
export type MarketServer = z.infer<typeof marketServerSchema>;

export const marketServersResponseSchema = z.object({
  success: z.literal(true),
  servers: z.array(marketServerSchema),
  /** At least 1 (an empty market has one empty page). */
  totalPages: z.number(),
  /**
   * Servers matching the filters; for a text search at most MARKET_SEARCH_COUNT_CAP, and
   * `totalCapped` says there are more (the pages end at the cap).
   */
  total: z.number(),
  /** Whether a text search found more than MARKET_SEARCH_COUNT_CAP servers (shown "1,000+"). */
  totalCapped: z.boolean(),
  page: z.number(),
  /** The page size used (after clamping). */
  limit: z.number(),
  /** The visitor's country and network, which `reachability` is measured from. */
  network: networkSchema,
});
export type MarketServersResponse = z.infer<typeof marketServersResponseSchema>;

export const marketCountriesResponseSchema = z.object({
  success: z.literal(true),
  /** ISO codes of the countries with listed servers, sorted. */
  countries: z.array(z.string()),
  /** Listed servers per ISO code. */
  counts: z.record(z.string(), z.number()),
});
export type MarketCountriesResponse = z.infer<typeof marketCountriesResponseSchema>;

/** docs/product/records.md#market-and-wallet-records Server stats, over the listed servers. */
export const marketStatsSchema = z.object({
  totalServers: z.number(),
  totalCountries: z.number(),
  /** Percent, one decimal; 0 with no servers. */
  averageReliability: z.number(),
  /** ms, whole; 0 when no server has a ping. */
  averagePing: z.number(),
});
export type MarketStats = z.infer<typeof marketStatsSchema>;

export const marketStatsResponseSchema = z.object({
  success: z.literal(true),
  stats: marketStatsSchema,
});
export type MarketStatsResponse = z.infer<typeof marketStatsResponseSchema>;

/** docs/product/records.md#market-and-wallet-records Processing: the session's servers in their connect cooldown. */
export const processingServersResponseSchema = z.object({
  success: z.literal(true),
  processingServers: z.array(z.string()),
  processingDetails: z.record(z.string(), z.object({ remainingSeconds: z.number() })),
});
export type ProcessingServersResponse = z.infer<typeof processingServersResponseSchema>;

/** docs/product/calls.md#market-and-account-calls `POST /data/mark-server-processing`: clientUUID must be the session's own uuid. */
export const markServerProcessingRequestSchema = requestBody({
  serverId: z
    .string({ error: MARKET_MESSAGES.serverIdRequired })
    .trim()
    .min(1, MARKET_MESSAGES.serverIdRequired)
    .max(64, MARKET_MESSAGES.serverNotFound),
  clientUUID: z
    .string({ error: MARKET_MESSAGES.clientUuidRequired })
    .trim()
    .min(1, MARKET_MESSAGES.clientUuidRequired)
    .max(64, 'clientUUID must be your account uuid'),
});
export type MarkServerProcessingRequest = z.infer<typeof markServerProcessingRequestSchema>;

export const markServerProcessingResponseSchema = processingServersResponseSchema.extend({
  message: z.string(),
});
export type MarkServerProcessingResponse = z.infer<typeof markServerProcessingResponseSchema>;

/** docs/product/calls.md#market-and-account-calls `GET /data/servers/{id}/health` (polled every 60 s). */
export const serverHealthResponseSchema = z.object({
  success: z.literal(true),
  /** Hours. */
  uptime: z.number(),
  reliability: z.number(),
  /** ms; null when not measured. */
  latency: z.number().nullable(),
  isStale: z.boolean(),
  lastUpdated: z.string().nullable(),
});
export type ServerHealthResponse = z.infer<typeof serverHealthResponseSchema>;

/** docs/product/records.md#market-and-wallet-records Admin servers: the premium servers' slots (a bare array, as the spec reads it). */
export const adminServerSchema = z.object({
  /** The server's id on /data/servers (what subscriptions name). */
  id: z.string(),
  ip: z.string(),
  availableUuids: z.number(),
  hasAvailable: z.boolean(),
});
export type AdminServer = z.infer<typeof adminServerSchema>;
export const adminServersResponseSchema = z.array(adminServerSchema);
export type AdminServersResponse = z.infer<typeof adminServersResponseSchema>;
