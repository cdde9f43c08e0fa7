import { z } from 'zod';
import { requestBody, UUID_PATTERN } from './common.contract';

/**
 * Subscriptions (docs/product/screens.md#the-shell-and-the-market-screens Purchase modals, docs/product/records.md#market-and-wallet-records, docs/product/states.md#market-and-account-states Purchase; docs/product/screens.md#dashboards-and-information-pages Client dashboard, docs/product/records.md#dashboard-records,
 * docs/product/states.md#subscription-and-reliability-states Subscription, docs/product/calls.md#dashboard-calls). Every `{uuid}` path is the session's own account uuid (403 otherwise);
 * an `{id}` that is not one of the account's subscriptions is 404.
 *
 * The server computes every price and reward: a purchase, a renewal, an activation and a
 * billing change each debit the client and credit the operators (frozen 60 days) in one
 * database transaction; there is no separate payment or reward call (docs/product/states.md#market-and-account-states's "operator
 * reward after purchase" is a server-side effect of the purchase).
 */
export const SUBSCRIPTION_ROUTES = {
  /** The one atomic purchase the portal uses (also answered at `/clients/create-subscription`). */
  create: '/api/clients/create-subscription',
  createLegacy: '/clients/create-subscription',
  active: (uuid: string) => `/api/clients/subscriptions/${encodeURIComponent(uuid)}`,
  paused: (uuid: string) => `/api/clients/paused-subscriptions/${encodeURIComponent(uuid)}`,
  subscription: (uuid: string, id: string) =>
    `/api/clients/subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(id)}`,
  pause: (uuid: string, id: string) =>
    `/api/clients/subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(id)}/pause`,
  activate: (uuid: string, id: string) =>
    `/api/clients/subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(id)}/activate`,
  changeType: (uuid: string, id: string) =>
    `/api/clients/subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(id)}/change-type`,
  /** Whether the billing job renews the subscription when its period ends. */
  autoRenew: (uuid: string, id: string) =>
    `/api/clients/subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(id)}/auto-renew`,
  /** The QR codes of one subscription (group and per server), for the QR modal. */
  qrCodes: (uuid: string, id: string) =>
    `/api/clients/subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(id)}/qr-codes`,
  /** Issues a new subscription URL; the old one answers 404 from then on. */
  rotateUrl: (uuid: string, id: string) =>
    `/api/clients/subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(id)}/rotate-url`,
  /** docs/product/calls.md#dashboard-calls: text of a group (`group_<id>.txt`, base64) or raw (`raw_<id>.txt`) file. */
  download: (uuid: string, fileName: string) =>
    `/api/clients/download-subscription/${encodeURIComponent(uuid)}/${encodeURIComponent(fileName)}`,
  /** docs/product/calls.md#market-and-account-calls: the same files by subscription id (session's own subscriptions only). */
  downloadById: (subscriptionId: string, fileName: string) =>
    `/clients/download-subscription/${encodeURIComponent(subscriptionId)}/${encodeURIComponent(fileName)}`,
  /** Path prefix of subscription URLs (`/sub/<secret>`); no session, the secret is the key. */
  subscriptionUrlPrefix: '/sub/',
} as const;

/** docs/product/screens.md#the-shell-and-the-market-screens and docs/product/calls.md#dashboard-calls: the header that makes a purchase or a paid change happen once. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const BILLING_CYCLES = ['monthly', 'hourly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** `paused` lists also hold `expired` subscriptions: activating one pays a new period. */
export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Why a subscription is not running: the client paused it, or a payment it needed failed. */
export const PAUSE_REASONS = ['user', 'insufficient_funds'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** A subscription covers 1 to 50 distinct servers. */
export const SUBSCRIPTION_MAX_SERVERS = 50;
/** docs/product/constants.md#market-prices-and-limits: QR size 180 px, error correction level L. */
export const SUBSCRIPTION_QR_SIZE = 180;
/**
 * The portal pages a subscription feed points at (`profile-web-page-url`, `support-url` and the
 * names of the placeholder entries of a paused, unpaid or expired subscription). The portal's
 * router uses the same paths (portal/src/config/paths.ts).
 */
export const SUBSCRIPTION_FEED_PAGES = {
  dashboard: '/client-dashboard',
  support: '/support',
} as const;
/** How often subscription apps should refresh the `/sub/` list (`profile-update-interval`, hours). */
export const SUBSCRIPTION_URL_UPDATE_HOURS = 12;

/** Group and raw file names (docs/product/records.md#dashboard-records: group files start with group_, raw group files with raw_). */
export const subscriptionFileName = (subscriptionId: string) => `group_${subscriptionId}.txt`;
export const subscriptionRawFileName = (subscriptionId: string) => `raw_${subscriptionId}.txt`;

export const SUBSCRIPTION_MESSAGES = {
  created: 'Subscription created successfully',
  paused: 'Subscription paused',
  activated: 'Subscription activated',
  deleted: 'Subscription deleted successfully',
  typeChanged: (cycle: BillingCycle) => `Billing type changed to ${cycle}`,
  /** docs/product/states.md#subscription-and-reliability-states: the automatic pause when a billing change cannot be paid. */
  automaticallyPaused: (cycle: BillingCycle) =>
    `Insufficient funds to change the billing type: the subscription was paused. Add SSL and activate it to resume with ${cycle} billing.`,
  urlRotated: 'A new subscription URL was issued; the old one no longer works',
  autoRenewOn: 'The subscription renews at the end of each period',
  autoRenewOff: 'The subscription will expire at the end of this period',
  notFound: 'Subscription not found',
  clientsOnly: 'Only client accounts can buy subscriptions',
  uuidMismatch: 'uuid must be your account uuid',
  uuidRequired: 'uuid is required',
  serverIdsRequired: 'Select at least one server',
  serverIdsTooMany: `A subscription can cover at most ${SUBSCRIPTION_MAX_SERVERS} servers`,
  serverIdsDuplicate: 'serverIds must not name a server twice',
  serverIdInvalid: 'Each server id must be a server id from the market',
  billingCycleInvalid: 'billingCycle must be monthly or hourly',
  newBillingCycleRequired: 'newBillingCycle is required',
  newBillingCycleInvalid: 'newBillingCycle must be monthly or hourly',
  serverNotFound: (id: string) => `Server ${id} was not found`,
  serverUnavailable: (name: string) => `Server ${name} is not available for subscription`,
  serverFull: (name: string) => `Server ${name} has no free client slots`,
  sameBillingCycle: (cycle: BillingCycle) => `This subscription already uses ${cycle} billing`,
  notActive: 'Only an active subscription can be paused or change its billing type',
  notPaused: 'This subscription is not paused',
  /** docs/product/constants.md#billing-and-the-economy: hourly subscriptions may pause twice a day, up to 8 hours each. */
  hourlyPausesUsed: (nextAt: string) =>
    `This hourly subscription has used its 2 pauses of the last 24 hours; the next pause is possible from ${nextAt}`,
  /** docs/product/constants.md#billing-and-the-economy: monthly subscriptions get one free 7-day pause every 6 months. */
  monthlyPauseUsed: (nextAt: string) =>
    `This monthly subscription has used its free 7-day pause of the last 6 months; the next pause is possible from ${nextAt}`,
  /** docs/product/messages.md#dashboard-messages: the 402 of activate. */
  activateInsufficient: (balanceSsl: string, requiredSsl: string) =>
    `Cannot activate subscription: Insufficient funds. Your balance: ${balanceSsl} SSL, Required: ${requiredSsl} SSL`,
  fileNotFound: 'Subscription file not found',
  /** Every server of the subscription was dropped (hidden, banned or deleted). */
  noServersLeft:
    'None of the servers of this subscription can serve you any more; choose new servers on the market',
  /** docs/product/input-rules.md#market-and-account-input, docs/product/messages.md#market-and-account-messages. */
  qrTooComplex: 'QR Code Too Complex',
} as const;

const microString = z.string().regex(/^-?\d+$/);

export const billingCycleSchema = z.enum(BILLING_CYCLES, {
  error: SUBSCRIPTION_MESSAGES.billingCycleInvalid,
});

/**
 * `POST /api/clients/create-subscription` (header `Idempotency-Key` recommended: a retry with the
 * same key returns the first answer and pays nothing). docs/product/calls.md#market-and-account-calls also lists `paymentId` and
 * `isFreeSubscription`: accepted for old clients and ignored, because the server prices and pays
 * the purchase itself (free only while the launch period is on).
 */
export const createSubscriptionRequestSchema = requestBody({
  uuid: z
    .string({ error: SUBSCRIPTION_MESSAGES.uuidRequired })
    .trim()
    .regex(UUID_PATTERN, SUBSCRIPTION_MESSAGES.uuidMismatch)
    .toLowerCase(),
  serverIds: z
    .array(
      z
        .string({ error: SUBSCRIPTION_MESSAGES.serverIdInvalid })
        .trim()
        .regex(UUID_PATTERN, SUBSCRIPTION_MESSAGES.serverIdInvalid)
        .toLowerCase(),
      { error: SUBSCRIPTION_MESSAGES.serverIdsRequired },
    )
    .min(1, SUBSCRIPTION_MESSAGES.serverIdsRequired)
    .max(SUBSCRIPTION_MAX_SERVERS, SUBSCRIPTION_MESSAGES.serverIdsTooMany)
    .refine((ids) => new Set(ids).size === ids.length, SUBSCRIPTION_MESSAGES.serverIdsDuplicate),
  billingCycle: billingCycleSchema.default('monthly'),
  paymentId: z.union([z.string().max(128), z.null()]).optional(),
  isFreeSubscription: z.boolean().optional(),
});
/** What the portal sends. */
export type CreateSubscriptionRequest = z.input<typeof createSubscriptionRequestSchema>;
/** What the control plane gets after validation. */
export type CreateSubscriptionInput = z.output<typeof createSubscriptionRequestSchema>;

/** `POST .../auto-renew`: renew at the end of each period (docs/product/records.md#dashboard-records autoRenew), or let it expire. */
export const autoRenewRequestSchema = requestBody({
  autoRenew: z.boolean({ error: 'autoRenew must be true or false' }),
});
export type AutoRenewRequest = z.infer<typeof autoRenewRequestSchema>;

/** `POST .../change-type` (docs/product/calls.md#dashboard-calls: body newBillingCycle). */
export const changeBillingTypeRequestSchema = requestBody({
  newBillingCycle: z.enum(BILLING_CYCLES, {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined
        ? SUBSCRIPTION_MESSAGES.newBillingCycleRequired
        : SUBSCRIPTION_MESSAGES.newBillingCycleInvalid,
  }),
});
export type ChangeBillingTypeRequest = z.infer<typeof changeBillingTypeRequestSchema>;

/**
 * One QR code: a PNG data URL (180 px, level L), or null with `qrTooComplex` when the text does
 * not fit a QR code (docs/product/messages.md#market-and-account-messages 'QR Code Too Complex': show the copy option instead).
 */
export const qrCodeFields = {
  qrCode: z.string().nullable(),
  qrTooComplex: z.boolean(),
};

/** docs/product/records.md#market-and-wallet-records serverQrCodes: one per server, for the subscription's own VLESS uuid. */
export const serverQrCodeSchema = z.object({
  /** The server's id (as on /data/servers). */
  id: z.string(),
  name: z.string(),
  /** The subscription's VLESS uuid (the same on every server of the subscription). */
  uuid: z.string(),
  vlessString: z.string(),
  ...qrCodeFields,
});
export type ServerQrCode = z.infer<typeof serverQrCodeSchema>;

/** One server of a subscription with its connection string for this subscription. */
export const subscriptionServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `vless://<subscription uuid>@<host>:<port>?...#<name>`; '' while the node has not reported its address. */
  vlessString: z.string(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  /** ISO 3166-1 alpha-2, null when unknown. */
  country: z.string().nullable(),
  isAdminServer: z.boolean(),
});
export type SubscriptionServer = z.infer<typeof subscriptionServerSchema>;

/**
 * Why a server was dropped from a subscription: hidden from the market (below 95%,
 * docs/product/states.md#subscription-and-reliability-states), banned after 14 days below it, or deleted by its operator.
 */
export const SERVER_DROP_REASONS = ['hidden', 'banned', 'deleted'] as const;
export type ServerDropReason = (typeof SERVER_DROP_REASONS)[number];

/** What the client dashboard says for each reason. */
export const SERVER_DROP_REASON_TEXT: Record<ServerDropReason, string> = {
  hidden: 'hidden: reliability below 95%',
  banned: 'banned',
  deleted: 'deleted by its operator',
};

/**
 * A server dropped from the subscription, why, and what its unused paid time gave back. Its wire
 * names (`withdrawnServers`, `withdrawnAt`) predate the name "server drop" and stay as the API.
 */
export const droppedServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  reason: z.enum(SERVER_DROP_REASONS),
  /** E.g. "hidden: reliability below 95%". */
  reasonText: z.string(),
  /** When it stopped being able to serve (ISO); the refund covers paid time from here on. */
  unableSince: z.string(),
  /** When it was dropped (ISO). */
  withdrawnAt: z.string(),
  /** SSL refunded to the client's wallet for its unused paid time (0 when none was left). */
  refund: z.number(),
  refundMicro: microString,
});
export type DroppedServer = z.infer<typeof droppedServerSchema>;

/**
 * A server blocked in the client's network, replaced by a comparable one that works there, at no
 * charge (docs/reachability.md#replacements).
 */
export const serverReplacementSchema = z.object({
  blockedServerName: z.string(),
  replacementServerName: z.string(),
  /** The client's country (ISO 3166-1 alpha-2) and network (ASN, 0 unknown) it was blocked in. */
  country: z.string(),
  asn: z.number(),
  /** When it was replaced (ISO). */
  replacedAt: z.string(),
});
export type ServerReplacement = z.infer<typeof serverReplacementSchema>;

/**
 * What a pause is still allowed (docs/product/constants.md#billing-and-the-economy). Hourly: 2 pauses in any 24 hours, each ending by
 * itself after 8 hours. Monthly: 1 free pause in any 6 months, ending by itself after 7 days. A
 * pause the allowance does not cover is refused with 409 (it is never charged); while paused, the
 * paid time does not run (the expiration date moves by the paused time on resuming).
 */
export const pauseAllowanceSchema = z.object({
  pausesLeft: z.number(),
  /** 2 (hourly, per 24 hours) or 1 (monthly, per 6 months). */
  pausesPerWindow: z.number(),
  /** The longest a pause lasts before the subscription resumes by itself: 8 h or 7 days. */
  maxPauseHours: z.number(),
  /** When a used pause frees up again; null while pauses are left. */
  nextPauseAvailableAt: z.string().nullable(),
});
export type PauseAllowance = z.infer<typeof pauseAllowanceSchema>;

/** docs/product/records.md#dashboard-records Subscription, as the active and paused lists return it. */
export const subscriptionSchema = z.object({
  id: z.string(),
  /** The subscription's own VLESS uuid (the client id every node allows while it is active). */
  uuid: z.string(),
  /** E.g. "Subscription (3 servers)". */
  name: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Creation time (ISO); `created` is the same value. */
  timestamp: z.string(),
  created: z.string(),
  billingCycle: z.enum(BILLING_CYCLES),
  /** SSL paid per period (30 days monthly, 100 hours hourly) for all servers; 0 in the launch period. */
  billingAmount: z.number(),
  billingAmountMicro: microString,
  /** SSL per hour for all servers (docs/product/constants.md#billing-and-the-economy: 0.1 per server per hour). */
  hourlyPrice: z.number(),
  hourlyPriceMicro: microString,
  /** End of the paid time (ISO). While paused: when it would end if resumed now. */
  expirationDate: z.string(),
  /** Whole hours of paid time left (docs/product/states.md#subscription-and-reliability-states countdown); both names carry the same value. */
  remainingHours: z.number(),
  hoursRemaining: z.number(),
  /** Paid time left in seconds, for a precise hours:minutes countdown. */
  remainingSeconds: z.number(),
  serverCount: z.number(),
  serverIds: z.array(z.string()),
  servers: z.array(subscriptionServerSchema),
  /** The first server's connection string; vlessLink, connectionString and vlessConnectionString are the same. */
  vlessString: z.string(),
  vlessStrings: z.array(z.string()),
  vlessLink: z.string(),
  connectionString: z.string(),
  vlessConnectionString: z.string(),
  /** `group_<id>.txt` (base64 of the links) and `raw_<id>.txt` (one link per line). */
  fileName: z.string(),
  rawFileName: z.string(),
  groupFileUrl: z.string(),
  rawFileUrl: z.string(),
  /** `<PUBLIC_URL>/sub/<secret>`: what subscription apps import and refresh. */
  subscriptionUrl: z.string(),
  /** The QR codes of this subscription (GET, same session). */
  qrCodesUrl: z.string(),
  /** Renew at the end of each period when the balance allows (otherwise the subscription expires). */
  autoRenew: z.boolean(),
  /** ISO time of the current pause; null when active. */
  pausedAt: z.string().nullable(),
  /** When the current pause ends by itself (null when active or for unpaid/expired ones). */
  pauseEndsAt: z.string().nullable(),
  pauseReason: z.enum(PAUSE_REASONS).nullable(),
  /** What activate will charge: 0 to resume a pause, a period's price for unpaid or expired ones. */
  activationPrice: z.number(),
  activationPriceMicro: microString,
  pauseAllowance: pauseAllowanceSchema,
  /** Servers dropped because they could no longer serve, newest first. */
  withdrawnServers: z.array(droppedServerSchema),
  /** Servers replaced in the current period because they were blocked where the client is. */
  replacements: z.array(serverReplacementSchema),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionsResponseSchema = z.object({
  success: z.literal(true),
  subscriptions: z.array(subscriptionSchema),
});
export type SubscriptionsResponse = z.infer<typeof subscriptionsResponseSchema>;

/** docs/product/records.md#market-and-wallet-records Subscription creation response, plus the subscription URL and what was charged. */
export const subscriptionCreationResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscriptionId: z.string(),
  serverCount: z.number(),
  vlessString: z.string(),
  vlessStrings: z.array(z.string()),
  subscription: z.object({
    id: z.string(),
    uuid: z.string(),
    serverIds: z.array(z.string()),
    vlessString: z.string(),
    vlessStrings: z.array(z.string()),
    rawFileUrl: z.string(),
    groupFileUrl: z.string(),
    subscriptionUrl: z.string(),
  }),
  fileName: z.string(),
  rawFileName: z.string(),
  timestamp: z.string(),
  /** The group QR encodes the subscription URL (every listed app imports it); null if too complex. */
  groupQrCode: z.string().nullable(),
  groupQrTooComplex: z.boolean(),
  serverQrCodes: z.array(serverQrCodeSchema),
  servers: z.array(subscriptionServerSchema),
  serverIds: z.array(z.string()),
  subscriptionUrl: z.string(),
  billingCycle: z.enum(BILLING_CYCLES),
  expirationDate: z.string(),
  /** What this purchase took from the wallet (0 in the launch period), and the balance after it. */
  charged: z.number(),
  chargedMicro: microString,
  balanceMicro: microString,
  /** docs/product/records.md#market-and-wallet-records Payment response paymentId: the ledger transaction; null when nothing was charged. */
  paymentId: z.string().nullable(),
  /** The full list entry of the new subscription. */
  details: subscriptionSchema,
});
export type SubscriptionCreationResponse = z.infer<typeof subscriptionCreationResponseSchema>;

/** pause and activate answers. */
export const subscriptionActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionSchema,
  /** What the call took from the wallet (activate of an unpaid or expired subscription). */
  chargedMicro: microString,
  paymentId: z.string().nullable(),
});
export type SubscriptionActionResponse = z.infer<typeof subscriptionActionResponseSchema>;

/**
 * docs/product/calls.md#dashboard-calls change-type answer. Paid (10 SSL per server, no refund): the new cycle starts a new
 * paid period now. Short of funds: 200 with `automaticallyPaused` true, the subscription paused
 * with the new cycle, and `availableBalance`/`requiredAmount` for the alert; activating it later
 * pays that period.
 */
export const changeBillingTypeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionSchema,
  /** Balance after the call (SSL, 2 decimals as a number) and exactly in micro-SSL. */
  walletBalance: z.number(),
  walletBalanceMicro: microString,
  automaticallyPaused: z.boolean(),
  /** Present when automaticallyPaused: what the wallet holds and what the change needs (SSL). */
  availableBalance: z.number().optional(),
  requiredAmount: z.number().optional(),
  chargedMicro: microString,
  paymentId: z.string().nullable(),
});
export type ChangeBillingTypeResponse = z.infer<typeof changeBillingTypeResponseSchema>;

export const subscriptionQrCodesResponseSchema = z.object({
  success: z.literal(true),
  subscriptionId: z.string(),
  groupQrCode: z.string().nullable(),
  groupQrTooComplex: z.boolean(),
  serverQrCodes: z.array(serverQrCodeSchema),
});
export type SubscriptionQrCodesResponse = z.infer<typeof subscriptionQrCodesResponseSchema>;

export const rotateSubscriptionUrlResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscriptionUrl: z.string(),
});
export type RotateSubscriptionUrlResponse = z.infer<typeof rotateSubscriptionUrlResponseSchema>;

/**
 * docs/product/input-rules.md#dashboard-input: subscription content may be base64; decoded, only lines starting with `vless://`
 * are kept (docs/product/input-rules.md#market-and-account-input). Returns the links, or null when the text is neither form.
 */
export function decodeSubscriptionContent(text: string): string[] | null {
  const trimmed = text.trim();
  const links = (body: string) =>
    body
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line.toLowerCase().startsWith('vless://'));
  if (trimmed.toLowerCase().startsWith('vless://')) return links(trimmed);
  if (!/^[A-Za-z0-9+/=_-\s]+$/.test(trimmed)) return null;
  let decoded: string;
  try {
    decoded = decodeBase64(trimmed.replace(/\s+/g, ''));
  } catch {
    return null;
  }
  const found = links(decoded);
  return found.length > 0 ? found : null;
}

function decodeBase64(text: string): string {
  const normal = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
