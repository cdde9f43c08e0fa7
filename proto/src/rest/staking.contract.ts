import { z } from 'zod';
import { ECONOMICS, MICRO_PER_SSL } from '../economics';
import { formatSsl } from '../money';
import { requestBody } from './common.contract';

/**
 * docs/product/roles.md#who-may-use-the-dashboards and docs/product/constants.md#billing-and-the-economy: an operator's stake (owner-checked on every `{uuid}`; node
 * accounts only). Amounts are integer micro-SSL as decimal strings; the server decides what can
 * move: a stake comes out of the node wallet's available balance (not frozen rewards), and each
 * stake stays locked ECONOMICS.stakeLockDays days before it can be unstaked (oldest first).
 */
export const STAKING_ROUTES = {
  staking: (uuid: string) => `/api/nodes/${encodeURIComponent(uuid)}/staking`,
  stake: (uuid: string) => `/api/nodes/${encodeURIComponent(uuid)}/stake`,
  unstake: (uuid: string) => `/api/nodes/${encodeURIComponent(uuid)}/unstake`,
  autoStake: (uuid: string) => `/api/nodes/${encodeURIComponent(uuid)}/staking/auto`,
} as const;

/** A date for a message: "12 March 2026" (UTC, the day the stake unlocks). */
function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export const STAKING_MESSAGES = {
  fetchFailed: 'Failed to fetch staking data',
  stakeFailed: 'Failed to stake',
  unstakeFailed: 'Failed to unstake',
  autoStakeFailed: 'Failed to save automatic staking',
  amountRequired: 'Please enter an amount',
  amountInvalid: 'Amount must be a positive number of SSL with at most 6 decimals',
  amountMicroInvalid: 'amountMicro must be a positive whole number of micro-SSL',
  amountBoth: 'Give either amount or amountMicro, not both',
  amountTooLarge: 'Amount is larger than the total supply of SSL',
  percentInvalid: 'percent must be a whole number from 0 to 100',
  nodeAccountsOnly: 'Staking is for node operator accounts',
  staked: (amountMicro: string | bigint) => `Staked ${formatSsl(amountMicro)} SSL`,
  unstaked: (amountMicro: string | bigint) =>
    `Unstaked ${formatSsl(amountMicro)} SSL to your node wallet`,
  autoStakeSaved: (percent: number) =>
    percent === 0
      ? 'Automatic staking is off'
      : `Automatic staking set to ${percent}% of each payout`,
  /** 402: frozen rewards cannot be staked. */
  availableTooLow: (requiredMicro: string | bigint, availableMicro: string | bigint) =>
    `Insufficient available balance. You want to stake ${formatSsl(requiredMicro)} SSL but only ${formatSsl(availableMicro)} SSL of your node wallet is available (frozen rewards cannot be staked).`,
  /** 409: the rule of unstaking, with the next unlock when there is one. */
  stakeLocked: (
    requiredMicro: string | bigint,
    unlockedMicro: string | bigint,
    nextUnlock: { amountMicro: string; unlocksAt: string } | null,
  ) =>
    `Only ${formatSsl(unlockedMicro)} SSL of your stake is unlocked; you asked for ${formatSsl(requiredMicro)} SSL. Each stake is locked for ${ECONOMICS.stakeLockDays} days.` +
    (nextUnlock
      ? ` The next ${formatSsl(nextUnlock.amountMicro)} SSL unlocks on ${day(nextUnlock.unlocksAt)}.`
      : ''),
} as const;

/** Integer micro-SSL as a decimal string. */
const microString = z.string().regex(/^-?\d+$/);

/** No amount can pass the supply (also keeps every sum far inside a PostgreSQL bigint). */
const MAX_AMOUNT_MICRO = 10_000_000_000n * MICRO_PER_SSL;

/** '12.5' -> 12500000n; the text is a non-negative decimal with at most 6 decimals. */
export function sslToMicroText(ssl: string): bigint {
  const [whole, fraction = ''] = ssl.split('.');
  return BigInt(whole!) * MICRO_PER_SSL + BigInt(fraction.padEnd(6, '0') || '0');
}

/** The micro-SSL of a stake or unstake body, or the message of what is wrong with it. */
export function stakeAmountMicro(body: {
  amount?: string | number;
  amountMicro?: string;
}): { micro: bigint } | { error: string } {
  if (body.amount !== undefined && body.amountMicro !== undefined)
    return { error: STAKING_MESSAGES.amountBoth };
  let micro: bigint;
  if (body.amountMicro !== undefined) {
    const text = body.amountMicro.trim();
    if (!/^\d{1,20}$/.test(text)) return { error: STAKING_MESSAGES.amountMicroInvalid };
    micro = BigInt(text);
    if (micro === 0n) return { error: STAKING_MESSAGES.amountMicroInvalid };
  } else if (body.amount !== undefined) {
    const text = typeof body.amount === 'number' ? numberText(body.amount) : body.amount.trim();
    if (text === '') return { error: STAKING_MESSAGES.amountRequired };
    if (!/^\d{1,11}(\.\d{1,6})?$/.test(text)) return { error: STAKING_MESSAGES.amountInvalid };
    micro = sslToMicroText(text);
    if (micro === 0n) return { error: STAKING_MESSAGES.amountInvalid };
  } else {
    return { error: STAKING_MESSAGES.amountRequired };
  }
  if (micro > MAX_AMOUNT_MICRO) return { error: STAKING_MESSAGES.amountTooLarge };
  return { micro };
}

/**
 * A stake or unstake: `amount` in SSL (a number or a decimal string, at most 6 decimals) or
 * `amountMicro` (a whole number of micro-SSL as a string), one of the two, above 0, at most the
 * supply. `stakeAmountMicro` gives the amount of a valid body.
 */
export const stakeAmountSchema = requestBody({
  amount: z.union([z.string(), z.number()], { error: STAKING_MESSAGES.amountInvalid }).optional(),
  amountMicro: z.string({ error: STAKING_MESSAGES.amountMicroInvalid }).optional(),
}).superRefine((body, ctx) => {
  const amount = stakeAmountMicro(body);
  if ('error' in amount) ctx.addIssue({ code: 'custom', message: amount.error });
});
export type StakeAmountInput = z.infer<typeof stakeAmountSchema>;

/** A JSON number as plain decimal text ('1e-7' and friends are not amounts of SSL). */
function numberText(value: number): string {
  return Number.isFinite(value) && value >= 0 && !/e/i.test(String(value)) ? String(value) : '-';
}

export const autoStakeSchema = requestBody({
  percent: z
    .number({ error: STAKING_MESSAGES.percentInvalid })
    .int(STAKING_MESSAGES.percentInvalid)
    .min(0, STAKING_MESSAGES.percentInvalid)
    .max(100, STAKING_MESSAGES.percentInvalid),
});
export type AutoStakeInput = z.infer<typeof autoStakeSchema>;

/** One server of the operator under halving protection (docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy). */
export const stakingServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  tier: z.string().nullable(),
  /** The node's year of operation, 1 until its first anniversary of enrollment. */
  nodeYear: z.number(),
  /** docs/product/constants.md#billing-and-the-economy: the share of monthly earnings to stake in this year (20/30/40/50%). */
  requiredSharePercent: z.number(),
  /**
   * The stake the requirement asks for so far: the sum of what the rewards engine stored on this
   * server's monthly statements (each month's node income times the share of the node's year
   * at its end; 0 before the first statement).
   */
  requiredStakeMicro: microString,
  enrolledAt: z.string(),
  /** When the hardware was first reported or last upgraded; null before the first report. */
  hardwareSince: z.string().nullable(),
  /** When halving applies unless the requirement is met: year 5, or 4 years of the hardware. */
  halvingFrom: z.string(),
  /** The last statement cut its rewards and allowed clients by half. */
  halvingCut: z.boolean(),
  maxClients: z.number().nullable(),
  /** Clients the market lets onto it: maxClients, halved by a cut. */
  allowedClients: z.number().nullable(),
});
export type StakingServer = z.infer<typeof stakingServerSchema>;

export const stakingDataSchema = z.object({
  stakeMicro: microString,
  /** What can be unstaked now: stakes older than the lock. */
  unlockedMicro: microString,
  lockedMicro: microString,
  /** The locked stakes, oldest first, with the instant each unlocks. */
  locks: z.array(z.object({ amountMicro: microString, unlocksAt: z.string() })),
  lockDays: z.number(),
  /** The node wallet's balance less its frozen rewards: what can be staked now. */
  stakeableMicro: microString,
  autoStakePercent: z.number(),
  apyPercent: z.number(),
  /** docs/product/constants.md#billing-and-the-economy: stake x 12% / 12, on the stake held through a whole month. */
  monthlyIncomeMicro: microString,
  /**
   * The requirement over all of the operator's monthly statements (a deleted server's too): the
   * figure the rewards engine compares the stake with. Whether the stake covers it.
   */
  requiredStakeMicro: microString,
  requirementMet: z.boolean(),
  servers: z.array(stakingServerSchema),
  lastUpdated: z.string(),
});
export type StakingData = z.infer<typeof stakingDataSchema>;

export const stakingResponseSchema = z.object({
  success: z.literal(true),
  data: stakingDataSchema,
});
export type StakingResponse = z.infer<typeof stakingResponseSchema>;

/** The answer of a stake or unstake (stored under its Idempotency-Key and replayed as is). */
export const stakeMoveResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  transactionId: z.string(),
  amountMicro: microString,
  /** Balances after the move. */
  stakeMicro: microString,
  nodeWalletMicro: microString,
});
export type StakeMoveResponse = z.infer<typeof stakeMoveResponseSchema>;

export const autoStakeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  autoStakePercent: z.number(),
});
export type AutoStakeResponse = z.infer<typeof autoStakeResponseSchema>;
