import { z } from 'zod';
import { uuidSchema } from './common.contract';

/**
 * docs/product/records.md#market-and-wallet-records, docs/product/states.md#market-and-account-states, docs/product/calls.md#market-and-account-calls, docs/product/messages.md#market-and-account-messages: SOL deposits. The server decides every amount: a deposit
 * request fixes the SOL amount, the quote (SSL per SOL) and a Solana Pay reference key; the
 * transfer is found on chain by that reference and credited once per signature and per request.
 */
export const DEPOSIT_ROUTES = {
  /** docs/product/calls.md#market-and-account-calls (the portal refreshes through the /api one). */
  config: '/solana/config',
  apiConfig: '/api/solana/config',
  /** POST: a deposit request of the session's account (its client or node wallet). */
  requests: '/api/solana/deposit-requests',
  request: (id: string) => `/api/solana/deposit-requests/${encodeURIComponent(id)}`,
  /** docs/product/calls.md#market-and-account-calls: checks the chain now for the account's open request (or the named one). */
  verify: '/api/solana/verify-deposit',
  /**
   * GET: the session account's own deposit address (docs/deposits.md#per-account-addresses);
   * `?wallet=node` or `?wallet=client` names the wallet (default: the account type's own).
   */
  depositAddress: '/api/solana/deposit-address',
  /** GET: the transfers to that address, newest first, and what waits for the minimum. */
  depositTransfers: '/api/solana/deposit-address/transfers',
  /** POST { signature }: checks that transaction now and credits its transfers to the address. */
  depositAddressVerify: '/api/solana/deposit-address/verify',
} as const;

export const SOLANA_CLUSTERS = ['localnet', 'devnet', 'mainnet-beta'] as const;
export type SolanaCluster = (typeof SOLANA_CLUSTERS)[number];

/** Lamports per SOL: amounts travel as decimal strings of lamports, never floats. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;

/** docs/product/input-rules.md#market-and-account-input: the crypto form's input step and minimum. */
export const MIN_DEPOSIT_SOL = '0.001';

export const DEPOSIT_MESSAGES = {
  /** docs/product/messages.md#market-and-account-messages. */
  initFailed: 'Failed to initialize payment system',
  fillAll: 'Please fill in all required fields',
  invalidAmount: 'Please enter a valid SOL amount',
  notFound:
    'Transaction not found. Please ensure you sent the exact amount from the specified address.',
  verifyFailed: 'Failed to verify deposit',
  cardUnavailable:
    'Credit card payments are currently unavailable. Please use Solana deposits instead.',
  /** Refusals of a deposit (nothing is credited). */
  invalidAddress: 'Please enter a valid Solana address',
  invalidSignature: 'That is not a valid Solana transaction signature',
  wrongRecipient: 'That transaction did not pay the deposit address',
  wrongAmount: 'That transaction did not send the exact amount of the deposit request',
  failedTransaction: 'That transaction failed on chain; nothing was credited',
  notConfirmed: 'The transaction is not confirmed yet. Please wait a moment and verify again.',
  tooOld: 'That transaction is older than the deposit request',
  alreadyCredited: 'This deposit has already been credited',
  creditedElsewhere: 'That transaction was already credited to another account',
  requestExpired: 'This deposit request has expired. Please start a new deposit.',
  requestNotFound: 'Deposit request not found',
  ambiguous:
    'More than one open deposit request matches that transfer. Please verify it from its payment instructions.',
  /** The alert after a credit. */
  credited: (ssl: string) => `Deposit verified: ${ssl} SSL credited to your wallet`,
} as const;

/** A Solana address (a base58 public key: 32 bytes, 32 to 44 characters). */
export const solanaAddressSchema = z
  .string({ error: DEPOSIT_MESSAGES.fillAll })
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, DEPOSIT_MESSAGES.invalidAddress);

/** A transaction signature (base58, 64 bytes: 86 to 88 characters). */
export const solanaSignatureSchema = z
  .string()
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/, DEPOSIT_MESSAGES.invalidSignature);

/**
 * A SOL amount from a form: a number or a decimal string, above 0, at most 9 decimals (a
 * lamport), at least MIN_DEPOSIT_SOL. Yields the decimal string as typed (normalised).
 */
export const solAmountSchema = z
  .union([z.string(), z.number()], { error: DEPOSIT_MESSAGES.invalidAmount })
  .transform((value) => String(value).trim())
  .refine(
    (text) =>
      /^\d+(\.\d{1,9})?$/.test(text) && solToLamports(text) >= solToLamports(MIN_DEPOSIT_SOL),
    DEPOSIT_MESSAGES.invalidAmount,
  );

/** '1.5' -> 1500000000n; the text must be a non-negative decimal with at most 9 decimals. */
export function solToLamports(sol: string): bigint {
  const [whole, fraction = ''] = sol.split('.');
  return BigInt(whole!) * LAMPORTS_PER_SOL + BigInt(fraction.padEnd(9, '0').slice(0, 9) || '0');
}

/** 1500000000n -> '1.5' (no trailing zeros). */
export function lamportsToSol(lamports: bigint): string {
  const whole = lamports / LAMPORTS_PER_SOL;
  const fraction = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/**
 * The fewest lamports whose credit, floor(SOL x rate) whole SSL, is exactly `ssl` (a whole
 * number of SSL): what a wallet must send to receive that much.
 */
export function lamportsForSsl(ssl: bigint, sslPerSol: number): bigint {
  const rate = BigInt(sslPerSol);
  return (ssl * LAMPORTS_PER_SOL + rate - 1n) / rate;
}

/** docs/product/records.md#market-and-wallet-records Solana config, plus where the chain is. */
export const solanaConfigSchema = z.object({
  success: z.literal(true),
  depositAddress: z.string(),
  /** SSL per SOL (docs/product/constants.md#market-prices-and-limits: 5143 by default). */
  conversionRate: z.number(),
  /** USD per SSL (0.035). */
  sslTokenPrice: z.number(),
  solPriceUsd: z.number(),
  lastUpdated: z.string(),
  cluster: z.enum(SOLANA_CLUSTERS),
  /** The public RPC a wallet should use for this cluster. */
  rpcUrl: z.string(),
  /** How long a deposit request's quote holds. */
  quoteValidSeconds: z.number(),
  /** The explorer link of a transaction: replace `{signature}`. */
  explorerTxUrl: z.string(),
  /**
   * localnet only: the local chain's demo wallet (a keypair funded by airdrop), so a deposit can
   * be tried offline: GET it for `{ address, balanceLamports }`; POST `{ url }` (a `solana:`
   * transfer-request URL) to `<demoWalletUrl>/pay` and it pays it, answering `{ signature }`.
   */
  demoWalletUrl: z.string().nullable(),
  /**
   * Per-account deposit addresses are on: GET /api/solana/deposit-address answers
   * an address, so the portal asks for it only then (absent from an older server: off).
   */
  depositAddresses: z.boolean().optional(),
});
export type SolanaConfig = z.infer<typeof solanaConfigSchema>;

export const createDepositRequestSchema = z.object({
  solAmount: solAmountSchema,
  /** The address the client will send from (docs/product/states.md#market-and-account-states: "own Solana address"). */
  userAddress: solanaAddressSchema,
});
export type CreateDepositRequest = z.input<typeof createDepositRequestSchema>;

export const DEPOSIT_REQUEST_STATUSES = ['open', 'credited', 'expired'] as const;

export const depositRequestSchema = z.object({
  id: z.string(),
  status: z.enum(DEPOSIT_REQUEST_STATUSES),
  walletType: z.enum(['client_wallet', 'node_wallet']),
  depositAddress: z.string(),
  userAddress: z.string(),
  /** The Solana Pay reference key the transfer must carry. */
  reference: z.string(),
  solAmount: z.string(),
  lamports: z.string(),
  /** The quote: SSL per SOL, fixed at the request. */
  conversionRate: z.number(),
  /** floor(SOL x rate) SSL, as integer micro-SSL. */
  sslCreditMicro: z.string(),
  /** The Solana Pay transfer-request URL (solana:<address>?amount=..&reference=..). */
  transferUrl: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  signature: z.string().nullable(),
  creditedAt: z.string().nullable(),
});
export type DepositRequest = z.infer<typeof depositRequestSchema>;

export const depositRequestResponseSchema = z.object({
  success: z.literal(true),
  request: depositRequestSchema,
});
export type DepositRequestResponse = z.infer<typeof depositRequestResponseSchema>;

/** docs/product/calls.md#market-and-account-calls verify-deposit: the spec's fields, plus the request it is about and a signature. */
export const verifyDepositSchema = z.object({
  userAddress: solanaAddressSchema,
  expectedAmount: solAmountSchema,
  userId: uuidSchema,
  /** The deposit request being paid (the portal always sends it). */
  requestId: uuidSchema.optional(),
  /** A signature the client already knows (from its wallet); else found by the reference. */
  signature: solanaSignatureSchema.optional(),
});
export type VerifyDepositRequest = z.input<typeof verifyDepositSchema>;

export const verifyDepositResponseSchema = z.object({
  verified: z.boolean(),
  message: z.string(),
  transaction: z
    .object({
      signature: z.string(),
      /** docs/product/records.md#market-and-wallet-records: the SSL credited (whole SSL). */
      sslTokens: z.number(),
      sslCreditMicro: z.string(),
      solAmount: z.string(),
    })
    .optional(),
  error: z.string().optional(),
});
export type VerifyDepositResponse = z.infer<typeof verifyDepositResponseSchema>;

/** Currencies a per-account deposit address accepts: SOL, and the stablecoins whose mint is set. */
export const DEPOSIT_CURRENCIES = ['SOL', 'USDC', 'USDT'] as const;
export type DepositCurrency = (typeof DEPOSIT_CURRENCIES)[number];

export const DEPOSIT_WALLETS = ['client', 'node'] as const;

export const depositAddressQuerySchema = z.object({
  wallet: z.enum(DEPOSIT_WALLETS).optional(),
});

export const depositCurrencySchema = z.object({
  code: z.enum(DEPOSIT_CURRENCIES),
  /** The SPL mint (base58); null for SOL itself. */
  mint: z.string().nullable(),
  /** Decimals of one unit on chain (9 for SOL's lamports, 6 for USDC and USDT). */
  decimals: z.number().int(),
  /** Micro-SSL credited per whole unit (SOL: the setting's rate; tokens: $1 / $0.035, floored). */
  sslPerUnitMicro: z.string(),
  /** The least a transfer must carry to be credited, in the currency's smallest units. */
  minimumBaseUnits: z.string(),
  /** The same minimum as a decimal of whole units ('0.01'). */
  minimum: z.string(),
});
export type DepositCurrencyView = z.infer<typeof depositCurrencySchema>;

export const depositAddressResponseSchema = z.object({
  success: z.literal(true),
  /** The account wallet's own address: any transfer to it is the account's deposit. */
  address: z.string(),
  wallet: z.enum(DEPOSIT_WALLETS),
  currencies: z.array(depositCurrencySchema),
});
export type DepositAddressResponse = z.infer<typeof depositAddressResponseSchema>;

/**
 * A transfer to a per-account address (docs/deposits.md#per-account-addresses): `confirming`
 * (seen, not yet final), `pending_minimum` (final, below the minimum: credited with the next
 * ones once their total reaches it), `credited`, `refused` (a mint that is not accepted, never
 * credited) or `dropped` (never became final).
 */
export const DEPOSIT_TRANSFER_STATUSES = [
  'confirming',
  'pending_minimum',
  'credited',
  'refused',
  'dropped',
] as const;
export type DepositTransferStatus = (typeof DEPOSIT_TRANSFER_STATUSES)[number];

/** Why a transfer is refused: a mint that is not USDC or USDT, a Token-2022 account, an amount no ledger can hold. */
export const DEPOSIT_REFUSALS = ['unknown_mint', 'token_2022', 'too_large'] as const;
export type DepositRefusal = (typeof DEPOSIT_REFUSALS)[number];

export const depositTransferSchema = z.object({
  id: z.string(),
  signature: z.string(),
  /** SOL, USDC or USDT; null for a mint that is not accepted. */
  currency: z.enum(DEPOSIT_CURRENCIES).nullable(),
  /** The SPL mint; null for SOL. */
  mint: z.string().nullable(),
  /** The amount in the currency's smallest units (lamports, token base units). */
  baseUnits: z.string(),
  /** The same amount in whole units ('1.5'), with the asset's decimals on chain (never null since deposits of several assets). */
  amount: z.string().nullable(),
  status: z.enum(DEPOSIT_TRANSFER_STATUSES),
  refusedReason: z.enum(DEPOSIT_REFUSALS).nullable(),
  /** The quote in force when it finalized: micro-SSL per whole unit. */
  sslPerUnitMicro: z.string().nullable(),
  /** Micro-SSL credited (status credited only). */
  creditMicro: z.string().nullable(),
  seenAt: z.string(),
  creditedAt: z.string().nullable(),
});
export type DepositTransferView = z.infer<typeof depositTransferSchema>;

/** Final transfers below the minimum, summed per currency: credited once the total reaches it. */
export const depositPendingSchema = z.object({
  currency: z.enum(DEPOSIT_CURRENCIES),
  baseUnits: z.string(),
  amount: z.string(),
  minimumBaseUnits: z.string(),
  minimum: z.string(),
});
export type DepositPendingView = z.infer<typeof depositPendingSchema>;

export const depositTransfersQuerySchema = z.object({
  wallet: z.enum(DEPOSIT_WALLETS).optional(),
  /** At most this many, newest first (default 50, at most 200). */
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export const depositTransfersResponseSchema = z.object({
  success: z.literal(true),
  address: z.string(),
  transfers: z.array(depositTransferSchema),
  pending: z.array(depositPendingSchema),
});
export type DepositTransfersResponse = z.infer<typeof depositTransfersResponseSchema>;

export const verifyAddressDepositSchema = z.object({
  signature: solanaSignatureSchema,
  wallet: z.enum(DEPOSIT_WALLETS).optional(),
});
export type VerifyAddressDepositRequest = z.input<typeof verifyAddressDepositSchema>;

/** The transaction's transfers to the session's address, as recorded (credited when final). */
export const verifyAddressDepositResponseSchema = z.object({
  success: z.literal(true),
  transfers: z.array(depositTransferSchema),
});
export type VerifyAddressDepositResponse = z.infer<typeof verifyAddressDepositResponseSchema>;
