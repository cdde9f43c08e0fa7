import type { SharePlatform } from './social.contract';
import type { BillingCycle, ServerDropReason } from './subscriptions.contract';

/**
 * What a ledger transaction is, as a code and its values, so the portal says it in
 * the reader's language instead of showing the control plane's English `description` (which
 * stays, for logs, older rows and older clients). Each code's values are data, never words:
 * a period `2026-10`, a SOL amount as exact decimal text `0.5`, a server's name, a reason code.
 */
export interface TransactionDescriptionValues {
  /** A share-and-earn reward: the platform and whether it was prime time. */
  share_reward: { platform: SharePlatform; primeTime: boolean };
  /** An operator's monthly reward of a period `YYYY-MM`. */
  monthly_reward: { period: string };
  /** An operator's staking income of a period `YYYY-MM`. */
  staking_income: { period: string };
  /** A recovered server's frozen rewards released to its operator. */
  rewards_released: Record<string, never>;
  /** A server's frozen rewards returned to the pool (it was banned or deleted). */
  rewards_forfeited: { reason: 'banned' | 'deleted' };
  /** Node wallet to stake. */
  staked: Record<string, never>;
  /** Stake to node wallet. */
  unstaked: Record<string, never>;
  /** A SOL deposit: the SOL received (exact decimal text) at the rate of the request. */
  sol_deposit: { sol: string; sslPerSol: number };
  /** A stablecoin deposit to the account's own address: the amount received (exact decimal text). */
  token_deposit: { currency: 'USDC' | 'USDT'; amount: string };
  /** A server's promotion: the plan's id and the server's name. */
  promotion: { plan: 'basic' | 'standard' | 'premium'; server: string };
  /** A new subscription to `servers` servers. */
  subscription_purchased: { servers: number };
  /** A paused or expired subscription activated (a new period paid). */
  subscription_activated: Record<string, never>;
  /** A subscription renewed automatically. */
  subscription_renewed: Record<string, never>;
  /** A subscription's billing cycle changed (a new period paid). */
  billing_changed: { cycle: BillingCycle };
  /** An operator's reward for a client's paid period (frozen 60 days). */
  subscription_reward: Record<string, never>;
  /** A server dropped from a subscription and its unused paid time given back. */
  refund_server_dropped: { server: string; reason: ServerDropReason };
  /**
   * A server blocked in a client's network replaced by another for the rest of the period: the
   * unused part moves from the blocked server's side to the replacement's operator.
   */
  server_replacement: { blocked: string; replacement: string };
  /** A withdrawal to a Solana address. */
  withdrawal: { destination: string };
  /** A failed withdrawal's amount given back to the wallet. */
  withdrawal_returned: Record<string, never>;
}

export type TransactionDescriptionCode = keyof TransactionDescriptionValues;

/** Every code, in the order above (the portal's catalogues have a message for each). */
export const TRANSACTION_DESCRIPTION_CODES = [
  'share_reward',
  'monthly_reward',
  'staking_income',
  'rewards_released',
  'rewards_forfeited',
  'staked',
  'unstaked',
  'sol_deposit',
  'token_deposit',
  'promotion',
  'subscription_purchased',
  'subscription_activated',
  'subscription_renewed',
  'billing_changed',
  'subscription_reward',
  'refund_server_dropped',
  'server_replacement',
  'withdrawal',
  'withdrawal_returned',
] as const satisfies readonly TransactionDescriptionCode[];

/** A code with its values: what a ledger writer passes and a wallet row carries. */
export type TransactionDescription = {
  [C in TransactionDescriptionCode]: { code: C; values: TransactionDescriptionValues[C] };
}[TransactionDescriptionCode];

/** Whether a wallet row's code is one this build knows (a newer server may send others). */
export function isTransactionDescriptionCode(code: unknown): code is TransactionDescriptionCode {
  return (TRANSACTION_DESCRIPTION_CODES as readonly unknown[]).includes(code);
}
