import { formatMicroSsl } from '../../lib/money';
import {
  LAMPORTS_PER_SOL,
  MICRO_PER_SSL,
  type VerifyDepositResponse,
  solAmountSchema,
  solToLamports,
  solanaAddressSchema,
} from '@scn/proto';
import type { Locale } from '../../lib/i18n/locale';
import { wholeNumber } from './wallet-format';
import { type WalletMessage, depositMessage, depositServerText } from './wallet-messages';

/**
 * The crypto deposit's rules (docs/product/states.md#market-and-account-states, docs/product/input-rules.md#market-and-account-input, docs/product/messages.md#market-and-account-messages): the form's validation with the
 * contract's schemas, the quote preview, the outcome of a verify and the explorer link. Pure.
 */

export interface CryptoForm {
  solAmount: string;
  userAddress: string;
}

/** docs/product/input-rules.md#market-and-account-input: Continue is disabled until both fields are filled. */
export function canContinue(form: CryptoForm): boolean {
  return form.solAmount.trim() !== '' && form.userAddress.trim() !== '';
}

export type FormCheck =
  { ok: true; solAmount: string; userAddress: string } | { ok: false; error: WalletMessage };

/** docs/product/input-rules.md#market-and-account-input, docs/product/messages.md#market-and-account-messages: the first problem of the form, with the spec's message. */
export function checkCryptoForm(form: CryptoForm, userId: string | null): FormCheck {
  if (!canContinue(form) || !userId) return { ok: false, error: depositMessage('fillAll') };
  const amount = solAmountSchema.safeParse(form.solAmount);
  if (!amount.success) return { ok: false, error: depositMessage('invalidAmount') };
  const address = solanaAddressSchema.safeParse(form.userAddress);
  if (!address.success) return { ok: false, error: depositMessage('invalidAddress') };
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
export function creditedText(micro: string, locale: Locale): string {
  const value = BigInt(micro);
  return value % MICRO_PER_SSL === 0n
    ? wholeNumber(value / MICRO_PER_SSL, locale)
    : formatMicroSsl(value, locale, { decimals: 'cents', unit: false });
}

/** docs/product/states.md#market-and-account-states: the alert after a credit ("Deposit verified: {ssl} SSL credited to your wallet"). */
export function creditedMessage(micro: string, locale: Locale): WalletMessage {
  return depositMessage('credited', { ssl: creditedText(micro, locale) });
}

export type VerifyOutcome =
  { credited: true; alert: WalletMessage } | { credited: false; error: WalletMessage };

/** docs/product/messages.md#market-and-account-messages: a refused verify shows the server's message, else 'Transaction not found...'. */
export function verifyOutcome(response: VerifyDepositResponse, locale: Locale): VerifyOutcome {
  if (response.verified && response.transaction) {
    return {
      credited: true,
      alert: creditedMessage(response.transaction.sslCreditMicro, locale),
    };
  }
  const said = response.error || response.message;
  return { credited: false, error: said ? depositServerText(said) : depositMessage('notFound') };
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
