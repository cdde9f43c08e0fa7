import { z } from 'zod';

/** A server's reliability history, per UTC day, for the node dashboard's chart. */
export const RELIABILITY_ROUTES = {
  serverReliability: (uuid: string, serverId: string, days?: number) =>
    `/api/nodes/${encodeURIComponent(uuid)}/servers/${encodeURIComponent(serverId)}/reliability${
      days === undefined ? '' : `?days=${days}`
    }`,
} as const;

export const RELIABILITY_HISTORY_DAYS = { default: 30, min: 1, max: 90 } as const;

export const RELIABILITY_HISTORY_MESSAGES = {
  daysInvalid: `days must be a whole number from ${RELIABILITY_HISTORY_DAYS.min} to ${RELIABILITY_HISTORY_DAYS.max}`,
} as const;

/**
 * `?days=` (1 to 90, default 30): the last that many UTC days, today included. Anything else is
 * refused with 400; other parameters (cache busters) are ignored.
 */
export const serverReliabilityQuerySchema = z.object({
  days: z
    .string({ error: RELIABILITY_HISTORY_MESSAGES.daysInvalid })
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return RELIABILITY_HISTORY_DAYS.default;
      const value = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
      if (!(value >= RELIABILITY_HISTORY_DAYS.min && value <= RELIABILITY_HISTORY_DAYS.max)) {
        ctx.addIssue({ code: 'custom', message: RELIABILITY_HISTORY_MESSAGES.daysInvalid });
        return z.NEVER;
      }
      return value;
    }),
});
export type ServerReliabilityQuery = z.output<typeof serverReliabilityQuerySchema>;

/**
 * One UTC day of a server's reliability: what it averaged (time-weighted over the seconds it was
 * enrolled and not banned that day), its lowest, the time below 95%, and why it dropped.
 */
export const reliabilityDaySchema = z.object({
  /** `YYYY-MM-DD` (UTC). */
  date: z.string(),
  /** Seconds of the day the history covers (86,400 for a whole day; less today, or the day it was enrolled). */
  observedSeconds: z.number(),
  /** Time-weighted average, one decimal. */
  averageReliability: z.number(),
  minReliability: z.number(),
  /** Seconds below 95% (hidden from the market, rewards frozen). */
  belowSeconds: z.number(),
  reasons: z.object({
    /** Seconds with the last report more than an hour old (docs/product/states.md#subscription-and-reliability-states staleness). */
    staleSeconds: z.number(),
    /** Reports whose client count failed (-10 each). */
    failedClientCounts: z.number(),
    /** Reports whose numbers could not be true (-5 each). */
    malformedReports: z.number(),
  }),
});
export type ReliabilityDay = z.infer<typeof reliabilityDaySchema>;

export const serverReliabilityResponseSchema = z.object({
  success: z.literal(true),
  serverId: z.string(),
  /** The first day asked for (`YYYY-MM-DD`); days with no data are absent from `days`. */
  from: z.string(),
  /** Today (UTC), the last day asked for. */
  to: z.string(),
  /** docs/product/states.md#subscription-and-reliability-states: the threshold the chart draws (95). */
  threshold: z.number(),
  days: z.array(reliabilityDaySchema),
});
export type ServerReliabilityResponse = z.infer<typeof serverReliabilityResponseSchema>;
