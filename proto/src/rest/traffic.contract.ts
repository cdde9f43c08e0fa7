import { z } from 'zod';

/**
 * The traffic users can see, per UTC day, from the per-client byte counters agents
 * report. Only byte counts are kept (never a destination, an address or a finer time).
 */
export const TRAFFIC_ROUTES = {
  /** A client's subscription, per server per day (its owner only). */
  subscriptionTraffic: (uuid: string, subscriptionId: string, days?: number) =>
    `/api/clients/subscriptions/${encodeURIComponent(uuid)}/${encodeURIComponent(subscriptionId)}/traffic${
      days === undefined ? '' : `?days=${days}`
    }`,
  /** An operator's server, per day, all its subscriptions together. */
  serverTraffic: (uuid: string, serverId: string, days?: number) =>
    `/api/nodes/${encodeURIComponent(uuid)}/servers/${encodeURIComponent(serverId)}/traffic${
      days === undefined ? '' : `?days=${days}`
    }`,
} as const;

export const TRAFFIC_HISTORY_DAYS = { default: 30, min: 1, max: 90 } as const;

export const TRAFFIC_MESSAGES = {
  daysInvalid: `days must be a whole number from ${TRAFFIC_HISTORY_DAYS.min} to ${TRAFFIC_HISTORY_DAYS.max}`,
} as const;

/**
 * `?days=` (1 to 90, default 30): the last that many UTC days, today included. Anything else is
 * refused with 400; other parameters (cache busters) are ignored.
 */
export const trafficQuerySchema = z.object({
  days: z
    .string({ error: TRAFFIC_MESSAGES.daysInvalid })
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return TRAFFIC_HISTORY_DAYS.default;
      const value = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
      if (!(value >= TRAFFIC_HISTORY_DAYS.min && value <= TRAFFIC_HISTORY_DAYS.max)) {
        ctx.addIssue({ code: 'custom', message: TRAFFIC_MESSAGES.daysInvalid });
        return z.NEVER;
      }
      return value;
    }),
});
export type TrafficQuery = z.output<typeof trafficQuerySchema>;

/** Bytes as decimal strings (they outgrow 2^53 over time). Upload: what the device sent. */
export const trafficBytesSchema = z.object({
  uploadBytes: z.string(),
  downloadBytes: z.string(),
});
export type TrafficBytes = z.infer<typeof trafficBytesSchema>;

export const subscriptionTrafficDaySchema = trafficBytesSchema.extend({
  /** `YYYY-MM-DD` (UTC). */
  date: z.string(),
  serverId: z.string(),
});
export type SubscriptionTrafficDay = z.infer<typeof subscriptionTrafficDaySchema>;

export const subscriptionTrafficResponseSchema = z.object({
  success: z.literal(true),
  subscriptionId: z.string(),
  /** The first day asked for (`YYYY-MM-DD`); days and servers with no traffic are absent. */
  from: z.string(),
  /** Today (UTC), the last day asked for. */
  to: z.string(),
  /** One entry per server and day with traffic, by day then server. */
  days: z.array(subscriptionTrafficDaySchema),
  /** Over the days asked for. */
  total: trafficBytesSchema,
  /** Over all the days kept (what the subscription URL's `subscription-userinfo` header says). */
  allTime: trafficBytesSchema,
});
export type SubscriptionTrafficResponse = z.infer<typeof subscriptionTrafficResponseSchema>;

export const serverTrafficDaySchema = trafficBytesSchema.extend({
  /** `YYYY-MM-DD` (UTC). */
  date: z.string(),
  /** How many subscriptions moved traffic through the server that day (a count, never who). */
  subscriptions: z.number(),
});
export type ServerTrafficDay = z.infer<typeof serverTrafficDaySchema>;

export const serverTrafficResponseSchema = z.object({
  success: z.literal(true),
  serverId: z.string(),
  from: z.string(),
  to: z.string(),
  /** One entry per day with traffic, oldest first. */
  days: z.array(serverTrafficDaySchema),
  /** Over the days asked for. */
  total: trafficBytesSchema,
});
export type ServerTrafficResponse = z.infer<typeof serverTrafficResponseSchema>;
