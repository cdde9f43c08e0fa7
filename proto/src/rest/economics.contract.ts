import { z } from 'zod';

/** The live economy beside /economics' explanation (public, no account data). */
export const ECONOMICS_ROUTES = {
  live: '/api/economics/live',
} as const;

const micro = z.string().regex(/^-?\d+$/);

export const liveEconomySchema = z.object({
  /** The reward pool's balance now (micro-SSL), and what genesis put in it. */
  poolMicro: micro,
  poolGenesisMicro: micro,
  /** The current month (UTC, YYYY-MM), its place in the 12-month cycle (1 to 12) and its budget. */
  month: z.string().regex(/^\d{4}-\d{2}$/),
  cycleMonth: z.number().int().min(1).max(12),
  monthBudgetMicro: micro,
  /**
   * Paid out of the pool: for the last completed month (its monthly payout, statements and
   * staking incomes, whenever the job paid it), and since genesis.
   */
  lastMonthPaidMicro: micro,
  totalPaidMicro: micro,
  /** Paid into the pool since genesis (promotion fees, forfeited rewards). */
  totalInflowMicro: micro,
  /** Servers not banned; of those, reporting within the hour, and hidden (below 95%). */
  servers: z.number().int(),
  reportingServers: z.number().int(),
  hiddenServers: z.number().int(),
  /** The average reliability of the reporting servers, one decimal (null: none report). */
  networkReliability: z.number().nullable(),
  /** All operators' stakes, and how many operators stake. */
  totalStakeMicro: micro,
  stakers: z.number().int(),
  /** When these figures were computed (they are cached for up to a minute). */
  computedAt: z.string(),
});
export type LiveEconomy = z.infer<typeof liveEconomySchema>;
