import { DEPOSIT_MESSAGES, WITHDRAWAL_MESSAGES } from '@scn/proto';
import type { TFunction } from 'i18next';
import type { WalletLoadMessageKey } from './wallet-loader';

/**
 * What the wallet says about a failure, as a catalogue key (docs/i18n.md: translated by its
 * code, never by parsing English). The contract's fixed messages have a key each
 * (`wallet:deposit.messages.*`, `wallet:withdraw.messages.*`); a message the server wrote that is
 * none of them is shown as it came.
 */

/** The demo wallet's failures (api/solana.ts throws them; their text stands for a key). */
export const DEMO_WALLET_FAILED = 'The demo wallet could not pay this request';
export const DEMO_WALLET_UNREACHABLE = 'The demo wallet could not be reached';

/** A failed call's HTTP status (ApiError's; 0 for the network), read without importing it. */
function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : null;
}

type FixedKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/** The contract's fixed deposit messages the portal can meet (cards are not offered). */
const { cardUnavailable: _card, ...DEPOSIT_FIXED } = DEPOSIT_MESSAGES;

export type DepositMessageKey =
  FixedKeys<typeof DEPOSIT_FIXED> | 'credited' | 'demoFailed' | 'demoUnreachable';
export type WithdrawMessageKey =
  | FixedKeys<typeof WITHDRAWAL_MESSAGES>
  | 'fetchFailed'
  | 'belowMinimum'
  | 'overAvailable'
  | 'dailyCap'
  | 'reservedAddress';

export type WalletMessage =
  | { area: 'deposit'; key: DepositMessageKey; values?: Record<string, string> }
  | { area: 'withdraw'; key: WithdrawMessageKey; values?: Record<string, string> }
  | { area: 'load'; key: WalletLoadMessageKey }
  | { text: string };

export const depositMessage = (
  key: DepositMessageKey,
  values?: Record<string, string>,
): WalletMessage => ({ area: 'deposit', key, values });
export const withdrawMessage = (
  key: WithdrawMessageKey,
  values?: Record<string, string>,
): WalletMessage => ({ area: 'withdraw', key, values });

/** The key of a contract message given as its exact text; null for any other text. */
function fixedKey<T extends object>(table: T, text: string): FixedKeys<T> | null {
  for (const [key, value] of Object.entries(table)) {
    if (value === text) return key as FixedKeys<T>;
  }
  return null;
}

/**
 * A failure of a deposit call: a contract message by its key, another server message as it came,
 * else the fallback (no message, or the network).
 */
export function depositFailure(error: unknown, fallback: DepositMessageKey): WalletMessage {
  const text = error instanceof Error ? error.message : '';
  if (!text || statusOf(error) === 0) return depositMessage(fallback);
  if (text === DEMO_WALLET_FAILED) return depositMessage('demoFailed');
  if (text === DEMO_WALLET_UNREACHABLE) return depositMessage('demoUnreachable');
  const key = fixedKey(DEPOSIT_FIXED, text);
  return key ? depositMessage(key) : { text };
}

/** A deposit message the server sent in a body (verify's `error` or `message`). */
export function depositServerText(text: string): WalletMessage {
  const key = fixedKey(DEPOSIT_FIXED, text);
  return key ? depositMessage(key) : { text };
}

/** A failure of the withdraw call (docs/product/messages.md#dashboard-messages: the server's message, else the fallback). */
export function withdrawFailure(error: unknown): WalletMessage {
  const status = statusOf(error);
  const text = error instanceof Error ? error.message : '';
  if (status === null || status === 0 || !text) return withdrawMessage('errorOccurred');
  const key = fixedKey(WITHDRAWAL_MESSAGES, text);
  return key ? withdrawMessage(key) : { text };
}

/** The text of a message in the reader's language (`t` of the `wallet` namespace). */
export function messageText(t: TFunction<'wallet'>, message: WalletMessage): string {
  if ('text' in message) return message.text;
  if (message.area === 'load') return t(`load.${message.key}`);
  if (message.area === 'deposit') return t(`deposit.messages.${message.key}`, message.values);
  return t(`withdraw.messages.${message.key}`, message.values);
}
