import {
  DEPOSIT_MESSAGES,
  LAMPORTS_PER_SOL,
  MICRO_PER_SSL,
  type VerifyDepositResponse,
  solAmountSchema,
  solToLamports,
  solanaAddressSchema,
} from '@scn/proto';
import { groupThousands, sslAmount } from './wallet-format';

/**
 * The crypto deposit's rules (spec 01 §4, §5, §8; issue 17): the form's validation with the
 * contract's schemas, the quote preview, the outcome of a verify and the explorer link. Pure.
 */

export interface CryptoForm {
  solAmount: string;
  userAddress: string;
}

/** spec 01 §5: Continue is disabled until both fields are filled. */
export function canContinue(form: CryptoForm): boolean {
  return form.solAmount.trim() !== '' && form.userAddress.trim() !== '';
}

export type FormCheck =
  { ok: true; solAmount: string; userAddress: string } | { ok: false; error: string };

/** spec 01 §5, §8: the first problem of the form, with the spec's message. */
export function checkCryptoForm(form: CryptoForm, userId: string | null): FormCheck {
  if (!canContinue(form) || !userId) return { ok: false, error: DEPOSIT_MESSAGES.fillAll };
  const amount = solAmountSchema.safeParse(form.solAmount);
  if (!amount.success) return { ok: false, error: DEPOSIT_MESSAGES.invalidAmount };
  const address = solanaAddressSchema.safeParse(form.userAddress);
  if (!address.success) return { ok: false, error: DEPOSIT_MESSAGES.invalidAddress };
  return { ok: true, solAmount: amount.data, userAddress: address.data };
}

/**
 * floor(SOL x rate) whole SSL for a valid amount (null otherwise): the preview of the form, the
 * server's quote deciding. The rate is taken to 3 decimals, the amount in lamports.
 */
export function quotedSsl(solAmount: string, sslPerSol: number): bigint | null {
  if (!solAmountSchema.safeParse(solAmount).success || !(sslPerSol > 0)) return null;
  const rateMilli = BigInt(Math.round(sslPerSol * 1000));
  return (solToLamports(solAmount.trim()) * rateMilli) / (LAMPORTS_PER_SOL * 1000n);
}

/** Micro-SSL as the alert says it: whole SSL without decimals ("5,143"), else 2 decimals. */
export function creditedText(micro: string): string {
  const value = BigInt(micro);
  return value % MICRO_PER_SSL === 0n
    ? groupThousands((value / MICRO_PER_SSL).toString())
    : sslAmount(value);
}

export type VerifyOutcome = { credited: true; alert: string } | { credited: false; error: string };

/** spec 01 §8: a refused verify shows the server's message, else 'Transaction not found...'. */
export function verifyOutcome(response: VerifyDepositResponse): VerifyOutcome {
  if (response.verified && response.transaction) {
    return {
      credited: true,
      alert: DEPOSIT_MESSAGES.credited(creditedText(response.transaction.sslCreditMicro)),
    };
  }
  return {
    credited: false,
    error: response.error || response.message || DEPOSIT_MESSAGES.notFound,
  };
}

/** The explorer page of a transaction for the cluster: config.explorerTxUrl with `{signature}`. */
export function explorerLink(
  template: string | null | undefined,
  signature: string,
): string | null {
  if (!template || !template.includes('{signature}')) return null;
  return template.split('{signature}').join(encodeURIComponent(signature));
}

/** The on-chain signature of a wallet transaction, when the server gives one (deposits). */
export function transactionSignature(transaction: object): string | null {
  const value = (transaction as { signature?: unknown }).signature;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** "1.5" -> "1.5 SOL"; the exact amount the instructions ask for, from the request's lamports. */
export function solText(solAmount: string): string {
  return `${solAmount} SOL`;
}
