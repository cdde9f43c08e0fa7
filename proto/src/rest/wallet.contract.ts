import { z } from 'zod';

/** docs/product/calls.md#market-and-account-calls and docs/product/calls.md#dashboard-calls: wallet calls (owner-checked on every `{uuid}`). */
export const WALLET_ROUTES = {
  clientWallet: (uuid: string) => `/wallet/client/${encodeURIComponent(uuid)}`,
  nodeWallet: (uuid: string) => `/wallet/node/${encodeURIComponent(uuid)}`,
  createClientWallet: '/wallet/create-client-wallet',
  createNodeWallet: '/wallet/create-node-wallet',
  settings: '/wallet/settings',
  /** Refused here: the old client named the amount; purchases go through create-subscription. */
  paySubscription: (uuid: string) => `/wallet/client/${encodeURIComponent(uuid)}/pay-subscription`,
  /** Suspended unless WITHDRAWALS_ENABLED (see withdrawals.contract.ts). */
  withdraw: (uuid: string) => `/wallet/node/${encodeURIComponent(uuid)}/withdraw`,
  /** Refused here: rewards are server-side effects of the verified event. */
  nodeReward: (uuid: string) => `/api/wallet/node/${encodeURIComponent(uuid)}/reward`,
  socialReward: '/wallet/add-social-reward',
} as const;

export const WALLET_MESSAGES = {
  fetchFailed: 'Failed to fetch wallet data',
  createFailed: 'Failed to create wallet',
  paymentFailed: 'Failed to process payment',
  withdrawalFailed: 'Failed to process withdrawal',
  settingsFailed: 'Failed to fetch wallet settings',
  rewardFailed: 'Failed to reward node operator',
  withdrawalsSuspended: 'Withdrawals are suspended',
  /** docs/product/input-rules.md#market-and-account-input. */
  insufficientBalance: (priceSsl: string, balanceSsl: string) =>
    `Insufficient balance. You need ${priceSsl} SSL but have ${balanceSsl} SSL.`,
  payThroughSubscription:
    'Payments are taken by create-subscription, which computes the price on the server',
  rewardsAreServerSide:
    'Rewards are paid by the server when the event that earns them is verified; they cannot be requested',
} as const;

/**
 * Every type of ledger transaction (the control plane's LedgerTransactionType is this list): spec
 * 01 §3's types, plus the server's own. A wallet lists a transaction with its type; the portal
 * labels each one, and shows any type it does not know by its raw name.
 */
export const TRANSACTION_TYPES = [
  'deposit',
  'withdrawal',
  'subscription',
  'subscription_reward',
  'monthly_reward',
  'billing_change',
  'activation',
  'promotion',
  'social_reward',
  'test_deposit',
  /** Unused paid time on a server that could not serve, given back. */
  'refund',
  /** The reward pool minted once (a system account's: never in a user's wallet). */
  'genesis',
  /** Stake income, stakes (node wallet to stake) and unstakes (back). */
  'staking_reward',
  'stake',
  'unstake',
  /**
   * Escrowed rewards released to the operator on recovery, or given back to the
   * pool on a ban (escrow to pool: never in a user's wallet).
   */
  'reward_release',
  'reward_forfeit',
  /** A failed withdrawal's amount given back. */
  'withdrawal_reversal',
  /**
   * A server blocked where a client is, replaced for the rest of the paid period: the unused
   * part of its period moves to the replacement's operator (docs/reachability.md#replacements).
   */
  'server_replacement',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Amounts are integer micro-SSL as decimal strings (signed: positive green +, negative red). */
const microString = z.string().regex(/^-?\d+$/);

export const walletTransactionSchema = z.object({
  id: z.string(),
  type: z.string(),
  amountMicro: microString,
  timestamp: z.string(),
  subscriptionId: z.string().nullable(),
  serverCount: z.number().nullable(),
  duration: z.string().nullable(),
  /** The control plane's English words (logs, older rows): shown only without a code. */
  description: z.string().nullable(),
  /**
   * What the transaction is, as a code of TRANSACTION_DESCRIPTION_CODES with its values
   * (TransactionDescriptionValues), for the reader's language. Null on rows written
   * before the codes; absent from older servers. A code this build does not know is possible
   * (a newer server): show `description` then.
   */
  descriptionCode: z.string().nullable().optional(),
  descriptionValues: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .nullable()
    .optional(),
  /** Node wallets: an operator reward that cannot be withdrawn before this instant. */
  frozenUntil: z.string().nullable(),
  /**
   * Deposits: the Solana transaction signature; the explorer link is the Solana
   * config's `explorerTxUrl` with `{signature}` replaced. Absent from older servers.
   */
  signature: z.string().nullable().optional(),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;

export const walletDataSchema = z.object({
  walletType: z.enum(['client', 'node']),
  balanceMicro: microString,
  /** Node wallets: the part of the balance still frozen (docs/product/records.md#dashboard-records: not yet expired only). */
  frozenAmountMicro: microString,
  frozenAmounts: z.array(z.object({ amountMicro: microString, frozenUntil: z.string() })),
  /** Balance minus frozen: what a withdrawal could take. */
  availableMicro: microString,
  /** The deposit address of the network (docs/product/records.md#market-and-wallet-records walletAddress); null until deposits exist. */
  walletAddress: z.string().nullable(),
  transactions: z.array(walletTransactionSchema),
  /** Older transactions exist: ask again with `?before=<last id>`. */
  hasMore: z.boolean(),
  lastUpdated: z.string(),
});
export type WalletData = z.infer<typeof walletDataSchema>;

export const walletResponseSchema = z.object({ success: z.literal(true), data: walletDataSchema });
export type WalletResponse = z.infer<typeof walletResponseSchema>;

/** The largest PostgreSQL bigint. */
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** `?limit=` (1-200, default 50) and `?before=` (a transaction id) page the transactions. */
export const walletQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .default(50),
  before: z
    .string()
    // Ids are PostgreSQL bigints: 19 digits can exceed 2^63 - 1, which the database refuses.
    .refine(
      (value) => /^\d{1,19}$/.test(value) && BigInt(value) <= MAX_BIGINT,
      'before must be a transaction id',
    )
    .optional(),
  /** docs/product/calls.md#market-and-account-calls: the portal adds a cache-busting timestamp. */
  t: z.string().max(32).optional(),
  timestamp: z.string().max(32).optional(),
});
export type WalletQuery = z.infer<typeof walletQuerySchema>;

export const walletSettingsResponseSchema = z.object({
  success: z.literal(true),
  settings: z.object({
    sslUsdPrice: z.string(),
    monthlyPerServerMicro: microString,
    premiumPerServerMicro: microString,
    hourlyPerServerMicro: microString,
    hourlyBlockHours: z.number(),
    operatorRewardMicro: microString,
    operatorRewardFrozenDays: z.number(),
    launchPeriodEndsAt: z.string(),
    /** True while subscriptions are free (launch period). */
    launchPeriodActive: z.boolean(),
    withdrawalsEnabled: z.boolean(),
    depositsEnabled: z.boolean(),
  }),
});
export type WalletSettingsResponse = z.infer<typeof walletSettingsResponseSchema>;
