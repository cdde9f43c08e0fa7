import { z } from 'zod';
import { ECONOMICS, MICRO_PER_SSL } from '../economics';
import { sslText } from '../money';
import { LAMPORTS_PER_SOL, SOLANA_CLUSTERS } from './deposits.contract';

/**
 * Issue 18 §5, spec 01 §2 Withdraw modal, §5 withdrawal rules, spec 02 §6 (25% protocol fee) and
 * §8 (messages): a node operator sends SSL from the node wallet to a Solana address, paid out in
 * SOL from the treasury at a quoted rate. Off unless WITHDRAWALS_ENABLED (then "Suspended").
 */
export const WITHDRAWAL_ROUTES = {
  /** POST { amount, destinationAddress }, header Idempotency-Key. */
  withdraw: (uuid: string) => `/wallet/node/${encodeURIComponent(uuid)}/withdraw`,
  /** GET: the settings, what is left of today's cap, and the withdrawals (newest first). */
  list: (uuid: string) => `/wallet/node/${encodeURIComponent(uuid)}/withdrawals`,
} as const;

export const WITHDRAWAL_STATUSES = ['pending', 'sent', 'confirmed', 'failed'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** Most SSL digits a withdrawal amount may have after the point (micro-SSL). */
const AMOUNT_PATTERN = /^\d{1,12}(\.\d{1,6})?$/;

export const WITHDRAWAL_MESSAGES = {
  /** spec 02 §8. */
  success: (amountSsl: string, address: string) =>
    `Successfully withdrew ${amountSsl} SSL to ${address}`,
  failed: 'Failed to process withdrawal',
  errorOccurred: 'An error occurred while processing the withdrawal',
  /** spec 01 §5: the Withdraw button shows 'Suspended' while withdrawals are off. */
  suspended: 'Withdrawals are suspended',
  invalidAmount: 'Please enter a valid SSL amount (a number above 0, at most 6 decimals)',
  addressRequired: 'Please enter the Solana address to send to',
  invalidAddress: 'Please enter a valid Solana address',
  offCurve:
    'That address is a program-derived address (off the ed25519 curve): no wallet holds its key. Please enter a wallet address.',
  treasuryAddress: "That is the network's own treasury address. Please enter your wallet address.",
  belowMinimum: (minimumSsl: string) => `The minimum withdrawal is ${minimumSsl} SSL`,
  overAvailable: (availableSsl: string) =>
    `You can withdraw at most ${availableSsl} SSL (your balance minus frozen rewards)`,
  dailyCap: (capSsl: string, leftSsl: string) =>
    `Withdrawals are limited to ${capSsl} SSL a day; ${leftSsl} SSL left today`,
  notFound: 'Withdrawal not found',
} as const;

/** What each status says in the portal's list. */
export const WITHDRAWAL_STATUS_TEXT: Record<WithdrawalStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  confirmed: 'Confirmed',
  failed: 'Failed',
};

/** "12.5" -> 12500000n micro-SSL; null for anything but a decimal with at most 6 decimals. */
export function parseSslAmount(text: string): bigint | null {
  const trimmed = text.trim();
  if (!AMOUNT_PATTERN.test(trimmed)) return null;
  const [whole, fraction = ''] = trimmed.split('.');
  return BigInt(whole!) * MICRO_PER_SSL + BigInt(fraction.padEnd(6, '0') || '0');
}

export interface WithdrawalQuote {
  amountMicro: bigint;
  /** spec 02 §6: the 25% protocol fee, rounded up to the micro-SSL. */
  feeMicro: bigint;
  /** What is paid out: amount - fee. */
  netMicro: bigint;
  /** floor(net SSL / SSL per SOL), in lamports. */
  lamports: bigint;
  sslPerSol: number;
}

/**
 * The payout of a withdrawal of `amountMicro` at `sslPerSol` (whole SSL per SOL, the deposit
 * rate), with integer math only. The fee is rounded up (never under 25%); the lamports down (the
 * treasury never pays more SOL than the net SSL is worth at the rate).
 */
export function withdrawalQuote(
  amountMicro: bigint,
  sslPerSol: number,
  feePercent: number = ECONOMICS.withdrawalProtocolFeePercent,
): WithdrawalQuote {
  if (amountMicro <= 0n) throw new Error(`a withdrawal needs a positive amount: ${amountMicro}`);
  if (!Number.isInteger(sslPerSol) || sslPerSol <= 0) throw new Error(`bad rate: ${sslPerSol}`);
  const percent = BigInt(feePercent);
  const feeMicro = (amountMicro * percent + 99n) / 100n;
  const netMicro = amountMicro - feeMicro;
  const lamports = (netMicro * LAMPORTS_PER_SOL) / (MICRO_PER_SSL * BigInt(sslPerSol));
  return { amountMicro, feeMicro, netMicro, lamports, sslPerSol };
}

/** The success message for an amount of micro-SSL (exact, without trailing zeros). */
export function withdrawalSuccessMessage(amountMicro: bigint | string, address: string): string {
  return WITHDRAWAL_MESSAGES.success(sslText(amountMicro), address);
}

/** A base58 Solana address (32-44 characters); the server also checks it is on the curve. */
const destinationSchema = z
  .string({ error: WITHDRAWAL_MESSAGES.addressRequired })
  .trim()
  .min(1, WITHDRAWAL_MESSAGES.addressRequired)
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, WITHDRAWAL_MESSAGES.invalidAddress);

export const withdrawRequestSchema = z.object({
  /**
   * SSL as a decimal string (a number is read as its decimal text); the server parses it. A
   * preprocessed string rather than a union, so the OpenAPI document says "string".
   */
  amount: z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : value),
    z
      .string({ error: WITHDRAWAL_MESSAGES.invalidAmount })
      .trim()
      .refine((text) => (parseSslAmount(text) ?? 0n) > 0n, WITHDRAWAL_MESSAGES.invalidAmount),
  ),
  destinationAddress: destinationSchema,
});
export type WithdrawRequest = z.input<typeof withdrawRequestSchema>;

const microString = z.string().regex(/^\d+$/);

export const withdrawalSchema = z.object({
  id: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  amountMicro: microString,
  feeMicro: microString,
  netMicro: microString,
  /** The quote: SSL per SOL at the request, and the lamports it pays. */
  sslPerSol: z.number(),
  lamports: microString,
  destinationAddress: z.string(),
  /** The payout transaction's signature, once signed. */
  signature: z.string().nullable(),
  /** The explorer page of the signature on the cluster. */
  explorerUrl: z.string().nullable(),
  /** Why it failed (its amount and fee went back to the wallet). */
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  failedAt: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

export const withdrawResponseSchema = z.object({
  success: z.literal(true),
  /** spec 02 §8: "Successfully withdrew {amount} SSL to {address}". */
  message: z.string(),
  withdrawal: withdrawalSchema,
});
export type WithdrawResponse = z.infer<typeof withdrawResponseSchema>;

export const withdrawalSettingsSchema = z.object({
  enabled: z.boolean(),
  minimumMicro: microString,
  dailyCapMicro: microString,
  feePercent: z.number(),
  /** The rate a withdrawal is quoted at now; null while withdrawals are off. */
  sslPerSol: z.number().nullable(),
  cluster: z.enum(SOLANA_CLUSTERS).nullable(),
});
export type WithdrawalSettings = z.infer<typeof withdrawalSettingsSchema>;

export const withdrawalsResponseSchema = z.object({
  success: z.literal(true),
  settings: withdrawalSettingsSchema,
  /** Today's (UTC) withdrawals that did not fail, and what is left of the daily cap. */
  usedTodayMicro: microString,
  leftTodayMicro: microString,
  withdrawals: z.array(withdrawalSchema),
});
export type WithdrawalsResponse = z.infer<typeof withdrawalsResponseSchema>;
