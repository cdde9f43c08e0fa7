import { z } from 'zod';
import { ECONOMICS, MICRO_PER_SSL } from '../economics';
import { sslText } from '../money';
import { LAMPORTS_PER_SOL, SOLANA_CLUSTERS } from './deposits.contract';

/**
 * docs/product/screens.md#the-shell-and-the-market-screens Withdraw modal, docs/product/input-rules.md#market-and-account-input withdrawal rules, docs/product/roles.md#who-may-use-the-dashboards (25% protocol fee) and
 * docs/product/messages.md#dashboard-messages (messages): a node operator sends SSL from the node wallet to a Solana address, paid out in
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

/**
 * docs/withdrawals.md#the-amount: whole SSL (1 to 12 digits), optionally a point and 1 to 6
 * decimals (micro-SSL); no sign, exponent, whitespace or bare point.
 */
const AMOUNT_PATTERN = /^\d{1,12}(\.\d{1,6})?$/;

/**
 * The most significant digits a JSON number is taken with: a double holds any decimal of 15
 * exactly, so the number's shortest text is what the client wrote; past that it may not be.
 */
const EXACT_NUMBER_DIGITS = 15;

/**
 * Addresses a withdrawal may never go to, with what they are: Solana's native programs and
 * precompiles, the loaders, the sysvars, the token programs most often pasted by mistake, and
 * the incinerator. A program's or sysvar's account cannot take a transfer (the runtime keeps
 * these accounts read-only in a user's transaction, or refuses to change an executable
 * account's balance), so the payout would only fail on chain after the SSL was taken, and no
 * one holds a key to any of them. Some are on the ed25519 curve (the System Program's is 32 zero
 * bytes), so the curve check alone lets them through. The incinerator does take SOL, and burns
 * it at the end of the slot: refused too, since nothing sent there reaches the operator.
 */
export const SOLANA_RESERVED_ADDRESSES: Readonly<Record<string, string>> = {
  '11111111111111111111111111111111': 'System Program',
  Vote111111111111111111111111111111111111111: 'Vote Program',
  Stake11111111111111111111111111111111111111: 'Stake Program',
  StakeConfig11111111111111111111111111111111: 'Stake Config account',
  Config1111111111111111111111111111111111111: 'Config Program',
  BPFLoader1111111111111111111111111111111111: 'BPF Loader (deprecated)',
  BPFLoader2111111111111111111111111111111111: 'BPF Loader',
  BPFLoaderUpgradeab1e11111111111111111111111: 'BPF Upgradeable Loader',
  LoaderV411111111111111111111111111111111111: 'Loader v4',
  NativeLoader1111111111111111111111111111111: 'Native Loader',
  ComputeBudget111111111111111111111111111111: 'Compute Budget Program',
  AddressLookupTab1e1111111111111111111111111: 'Address Lookup Table Program',
  Feature111111111111111111111111111111111111: 'Feature Gate Program',
  Ed25519SigVerify111111111111111111111111111: 'Ed25519 signature precompile',
  KeccakSecp256k11111111111111111111111111111: 'Secp256k1 signature precompile',
  Secp256r1SigVerify1111111111111111111111111: 'Secp256r1 signature precompile',
  ZkE1Gama1Proof11111111111111111111111111111: 'ZK ElGamal Proof Program',
  ZkTokenProof1111111111111111111111111111111: 'ZK Token Proof Program',
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'Token Program',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'Token-2022 Program',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'Associated Token Account Program',
  Sysvar1111111111111111111111111111111111111: 'Sysvar owner',
  SysvarC1ock11111111111111111111111111111111: 'Clock sysvar',
  SysvarEpochSchedu1e111111111111111111111111: 'Epoch Schedule sysvar',
  SysvarEpochRewards1111111111111111111111111: 'Epoch Rewards sysvar',
  SysvarFees111111111111111111111111111111111: 'Fees sysvar',
  Sysvar1nstructions1111111111111111111111111: 'Instructions sysvar',
  SysvarLastRestartS1ot1111111111111111111111: 'Last Restart Slot sysvar',
  SysvarRecentB1ockHashes11111111111111111111: 'Recent Blockhashes sysvar',
  SysvarRent111111111111111111111111111111111: 'Rent sysvar',
  SysvarRewards111111111111111111111111111111: 'Rewards sysvar',
  SysvarS1otHashes111111111111111111111111111: 'Slot Hashes sysvar',
  SysvarS1otHistory11111111111111111111111111: 'Slot History sysvar',
  SysvarStakeHistory1111111111111111111111111: 'Stake History sysvar',
  '1nc1nerator11111111111111111111111111111111': 'Incinerator (it burns what it receives)',
};

/** What a reserved address is (SOLANA_RESERVED_ADDRESSES); null for any other. */
export function reservedAddressName(address: string): string | null {
  return Object.hasOwn(SOLANA_RESERVED_ADDRESSES, address)
    ? SOLANA_RESERVED_ADDRESSES[address]!
    : null;
}

export const WITHDRAWAL_MESSAGES = {
  /** docs/product/messages.md#dashboard-messages. */
  success: (amountSsl: string, address: string) =>
    `Successfully withdrew ${amountSsl} SSL to ${address}`,
  failed: 'Failed to process withdrawal',
  errorOccurred: 'An error occurred while processing the withdrawal',
  /** docs/product/input-rules.md#market-and-account-input: the Withdraw button shows 'Suspended' while withdrawals are off. */
  suspended: 'Withdrawals are suspended',
  invalidAmount: 'Please enter a valid SSL amount (a number above 0, at most 6 decimals)',
  addressRequired: 'Please enter the Solana address to send to',
  invalidAddress: 'Please enter a valid Solana address',
  offCurve:
    'That address is a program-derived address (off the ed25519 curve): no wallet holds its key. Please enter a wallet address.',
  treasuryAddress: "That is the network's own treasury address. Please enter your wallet address.",
  /** SOLANA_RESERVED_ADDRESSES: a program, sysvar or the incinerator, by name. */
  reservedAddress: (name: string) =>
    `That address is Solana's ${name}, not a wallet: SOL sent there can never reach you. Please enter your wallet address.`,
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

/**
 * "12.5" -> 12500000n micro-SSL; null for anything but the amount grammar (AMOUNT_PATTERN),
 * whitespace included: a form trims what was typed before it asks.
 */
export function parseSslAmount(text: string): bigint | null {
  if (!AMOUNT_PATTERN.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * MICRO_PER_SSL + BigInt(fraction.padEnd(6, '0') || '0');
}

/**
 * A withdrawal's `amount` as the API takes it, in micro-SSL; null when it is neither form. A
 * string by the grammar exactly. A JSON number (as the old client's form sent it) by its
 * shortest decimal text, which must fit the same grammar (so 1e-7 and -1 do not) and carry at
 * most EXACT_NUMBER_DIGITS significant digits; a larger or finer amount goes as a string.
 */
export function withdrawalAmountMicro(amount: unknown): bigint | null {
  if (typeof amount === 'string') return parseSslAmount(amount);
  if (typeof amount !== 'number') return null;
  const text = String(amount);
  const significant = text.replace(/^[0.]+/, '').replace('.', '');
  return significant.length > EXACT_NUMBER_DIGITS ? null : parseSslAmount(text);
}

export interface WithdrawalQuote {
  amountMicro: bigint;
  /** docs/product/roles.md#who-may-use-the-dashboards: the 25% protocol fee, rounded up to the micro-SSL. */
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
   * SSL above 0: a decimal string ("12.5"), or a JSON number taken as exactly that decimal
   * (withdrawalAmountMicro); the server reads it with the same function.
   */
  amount: z
    .union(
      // The pattern and the bound are for the OpenAPI document (a bare string-or-number union
      // comes out of it as an array); the refinement is the rule.
      [
        z.string().regex(AMOUNT_PATTERN, WITHDRAWAL_MESSAGES.invalidAmount),
        z.number().positive(WITHDRAWAL_MESSAGES.invalidAmount),
      ],
      { error: WITHDRAWAL_MESSAGES.invalidAmount },
    )
    .refine(
      (amount) => (withdrawalAmountMicro(amount) ?? 0n) > 0n,
      WITHDRAWAL_MESSAGES.invalidAmount,
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
  /** docs/product/messages.md#dashboard-messages: "Successfully withdrew {amount} SSL to {address}". */
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
