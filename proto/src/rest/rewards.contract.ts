import { z } from 'zod';

/** The monthly reward statements of an operator's nodes (owner-checked `{uuid}`). */
export const REWARDS_ROUTES = {
  earnings: (uuid: string, period?: string) =>
    `/api/nodes/${encodeURIComponent(uuid)}/earnings${
      period ? `?period=${encodeURIComponent(period)}` : ''
    }`,
} as const;

export const REWARDS_MESSAGES = {
  periodFormat: 'period must be a month as YYYY-MM',
  periodInFuture: 'period is in the future: statements exist for past months and the current one',
  dryRun:
    'Dry run: this month so far, computed the same way as the statement the month will get once it has ended. Figures change until then.',
  pending:
    'Dry run: this month has ended but its statement is not written yet (the monthly run pays it within an hour of the month ending).',
  notRun:
    'Dry run: no monthly run covered this month (it ended before the run existed); this is what the facts give.',
  /** A server enrolled before the history sweep (once a minute) wrote any of its facts. */
  firstFactsPending:
    'Just enrolled: its first facts are on the way. The reliability history is written every minute, so its statement appears within about a minute.',
  /** The portal's message when the statement cannot be loaded (no answer from the server). */
  fetchFailed: 'Failed to load your earnings',
} as const;

/** `?period=YYYY-MM` (the current month when absent). */
export const earningsQuerySchema = z.object({
  period: z
    .string({ error: REWARDS_MESSAGES.periodFormat })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, REWARDS_MESSAGES.periodFormat)
    .optional(),
});
export type EarningsQuery = z.infer<typeof earningsQuerySchema>;

/** Amounts are integer micro-SSL as decimal strings. */
const microString = z.string().regex(/^-?\d+$/);

/** The lines of a statement, in the order of the formula. */
export const EARNINGS_LINE_KEYS = [
  'base',
  'reliability',
  'frozen',
  'halving',
  'subscriptions',
  'ad_bonus',
  'income',
  'budget',
  'payout',
] as const;
export type EarningsLineKey = (typeof EARNINGS_LINE_KEYS)[number];

export const earningsLineSchema = z.object({
  key: z.enum(EARNINGS_LINE_KEYS),
  label: z.string(),
  /** The line's inputs by name: amounts end in `Micro` (strings), the rest are numbers or flags. */
  inputs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  resultMicro: microString,
  /** The line in words, with its figures. */
  explanation: z.string(),
});
export type EarningsLine = z.infer<typeof earningsLineSchema>;

export const serverStatementSchema = z.object({
  serverId: z.string(),
  /** Null when the server has been deleted since. */
  serverName: z.string().nullable(),
  tier: z.string().nullable(),
  /** The server when the statement was computed (or now, for a dry run). */
  serverState: z.enum(['active', 'hidden', 'banned', 'deleted']),
  /** `computed`: written, not paid yet; `withheld`: pays nothing (banned); `dry_run`: so far. */
  status: z.enum(['computed', 'paid', 'withheld', 'dry_run']),
  withheld: z.enum(['hidden', 'banned', 'deleted']).nullable(),
  lines: z.array(earningsLineSchema),
  /** Node income: earned base + subscription rewards + ad bonus. */
  incomeMicro: microString,
  /** From the pool to the node wallet (frozen 60 days), the stake and the escrow. */
  walletMicro: microString,
  autoStakedMicro: microString,
  escrowedMicro: microString,
  paidAt: z.string().nullable(),
  ledgerTransactionId: z.string().nullable(),
  /**
   * The current month's dry run of a server with no facts yet (enrolled before the history
   * sweep, once a minute, wrote its first): listed with no lines and zero figures.
   */
  firstFactsPending: z.boolean(),
});
export type ServerStatement = z.infer<typeof serverStatementSchema>;

export const stakingStatementSchema = z.object({
  stakeAtStartMicro: microString,
  stakeAtEndMicro: microString,
  incomeMicro: microString,
  paidMicro: microString,
  status: z.enum(['computed', 'paid', 'dry_run']),
  explanation: z.string(),
});
export type StakingStatement = z.infer<typeof stakingStatementSchema>;

export const earningsSchema = z.object({
  period: z.string(),
  /** `statement`: the stored statements of an ended month; `dry_run`: computed now, so far. */
  kind: z.enum(['statement', 'dry_run']),
  /** The facts' end: the month's end for a statement, now for a dry run. */
  asOf: z.string(),
  note: z.string().nullable(),
  pool: z.object({
    poolMicro: microString,
    monthIndex: z.number(),
    budgetMicro: microString,
    /** What the whole network's statements and staking incomes ask of the pool. */
    demandMicro: microString,
    scaleNumeratorMicro: microString,
    scaleDenominatorMicro: microString,
    explanation: z.string(),
  }),
  servers: z.array(serverStatementSchema),
  staking: stakingStatementSchema.nullable(),
  totals: z.object({
    incomeMicro: microString,
    walletMicro: microString,
    autoStakedMicro: microString,
    escrowedMicro: microString,
    stakingMicro: microString,
  }),
});
export type Earnings = z.infer<typeof earningsSchema>;

export const earningsResponseSchema = z.object({
  success: z.literal(true),
  earnings: earningsSchema,
});
export type EarningsResponse = z.infer<typeof earningsResponseSchema>;
