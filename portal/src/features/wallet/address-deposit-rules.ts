import { formatMicroSsl } from '../../lib/money';
import type {
  DepositCurrency,
  DepositCurrencyView,
  DepositPendingView,
  DepositTransferStatus,
  DepositTransferView,
} from '@scn/proto';
import type { Locale } from '../../lib/i18n/locale';
import { solDecimal } from './wallet-format';

/**
 * The per-account deposit address's rules: amounts from base units, the rate and
 * minimum of each currency, the demo wallet's transfer request, the live state of the view and
 * the history's statuses. Pure: bigint arithmetic and exact decimal text, never floats.
 */

/** Base units as a decimal of whole units, no trailing zeros: (1500000n, 6) -> "1.5". */
export function unitsToDecimal(baseUnits: string | bigint, decimals: number): string {
  const value = BigInt(baseUnits);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  if (decimals <= 0) return `${sign}${abs}`;
  const scale = 10n ** BigInt(decimals);
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${sign}${abs / scale}${fraction ? `.${fraction}` : ''}`;
}

/** An amount of a currency in the reader's digits: "1.5 USDC" (fa "۱٫۵ USDC"). */
export function currencyAmount(
  baseUnits: string,
  decimals: number,
  code: string,
  locale: Locale,
): string {
  return `${solDecimal(unitsToDecimal(baseUnits, decimals), locale)} ${code}`;
}

/** "1 USDC = 28.571428 SSL": the SSL one whole unit buys (every micro-SSL digit). */
export function rateText(code: string, sslPerUnitMicro: string, locale: Locale): string {
  return `${solDecimal('1', locale)} ${code} = ${formatMicroSsl(sslPerUnitMicro, locale, { unit: false })} SSL`;
}

/** The least a transfer of this currency must carry: "0.01 USDC". */
export function minimumText(currency: DepositCurrencyView, locale: Locale): string {
  return currencyAmount(currency.minimumBaseUnits, currency.decimals, currency.code, locale);
}

/**
 * The demo wallet's transfer request to the address (no reference: any amount, from anyone, as
 * an exchange would send): `solana:<address>?amount=<x>[&spl-token=<mint>]`.
 */
export function addressTransferUrl(address: string, amount: string, mint: string | null): string {
  const query = new URLSearchParams({ amount });
  if (mint) query.set('spl-token', mint);
  return `solana:${address}?${query.toString()}`;
}

/** What the demo wallet sends of a currency on localnet: ten times its minimum, at least 0.1 unit. */
export function demoAmount(currency: DepositCurrencyView): string {
  const tenMinimums = BigInt(currency.minimumBaseUnits) * 10n;
  const tenth = 10n ** BigInt(currency.decimals) / 10n;
  return unitsToDecimal(tenMinimums > tenth ? tenMinimums : tenth, currency.decimals);
}

/** The live state of the deposit view: nothing new yet, one seen and confirming, one credited. */
export type LiveState =
  | { kind: 'waiting' }
  | { kind: 'confirming'; transfer: DepositTransferView }
  | { kind: 'credited'; transfer: DepositTransferView }
  | { kind: 'pending'; transfer: DepositTransferView }
  | { kind: 'refused'; transfer: DepositTransferView };

/**
 * The state shown for the transfers that arrived since the view opened (`known`: the ids it
 * found then). The newest credited one wins; else the newest confirming; else the newest final
 * one below the minimum or refused; else waiting. Dropped transfers never happened.
 */
export function liveState(
  transfers: readonly DepositTransferView[],
  known: ReadonlySet<string>,
): LiveState {
  const fresh = transfers.filter((transfer) => !known.has(transfer.id));
  const credited = fresh.find((transfer) => transfer.status === 'credited');
  if (credited) return { kind: 'credited', transfer: credited };
  const confirming = fresh.find((transfer) => transfer.status === 'confirming');
  if (confirming) return { kind: 'confirming', transfer: confirming };
  const other = fresh.find(
    (transfer) => transfer.status === 'pending_minimum' || transfer.status === 'refused',
  );
  if (other?.status === 'pending_minimum') return { kind: 'pending', transfer: other };
  if (other) return { kind: 'refused', transfer: other };
  return { kind: 'waiting' };
}

/** The portal's badge tones (`badge--<tone>`); neutral is the plain badge. */
export type StatusTone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

export type StatusKey = 'credited' | 'confirming' | 'pending' | 'refused' | 'dropped';

/** The badge of a transfer's status: its catalogue key (`deposit.history.status.<key>`) and tone. */
export function statusBadge(status: DepositTransferStatus): { key: StatusKey; tone: StatusTone } {
  switch (status) {
    case 'credited':
      return { key: 'credited', tone: 'success' };
    case 'confirming':
      return { key: 'confirming', tone: 'info' };
    case 'pending_minimum':
      return { key: 'pending', tone: 'warning' };
    case 'refused':
      return { key: 'refused', tone: 'danger' };
    case 'dropped':
      return { key: 'dropped', tone: 'neutral' };
  }
}

/** The amount of a transfer ("2 USDC"); a refused mint's raw base units when its decimals are unknown. */
export function transferAmount(transfer: DepositTransferView, locale: Locale): string {
  const code = transfer.currency ?? '?';
  return transfer.amount !== null
    ? `${solDecimal(transfer.amount, locale)} ${code}`
    : `${solDecimal(transfer.baseUnits, locale)} ${code}`;
}

/** The pending total below the minimum of a currency, if any. */
export function pendingFor(
  pending: readonly DepositPendingView[],
  currency: DepositCurrency | null,
): DepositPendingView | null {
  return pending.find((entry) => entry.currency === currency) ?? null;
}
