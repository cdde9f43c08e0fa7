import { MICRO_PER_SSL, SSL_USD_PRICE, type TransactionType, formatSsl, toMicro } from '@scn/proto';

/**
 * Display rules of the wallet panel (spec 01 §3, §5, §9). Amounts arrive as integer micro-SSL
 * strings; everything here is bigint arithmetic, never floats.
 */

/** "1234567.50" -> "1,234,567.50" (the sign and the decimals stay as they are). */
export function groupThousands(text: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = ''] = match;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction}`;
}

/** spec 01 §9: balances show 2 decimals: "1,234.50". */
export function sslAmount(micro: string | bigint): string {
  return groupThousands(formatSsl(micro));
}

/** Divides rounding half away from zero (both operands' signs respected, divisor > 0). */
function divideRounded(value: bigint, divisor: bigint): bigint {
  const half = divisor / 2n;
  return value < 0n ? -((-value + half) / divisor) : (value + half) / divisor;
}

/**
 * spec 01 §1: 1 SSL = $0.035, so the USD value of micro-SSL is micro x 35 / 1000 / 10^6 dollars,
 * rounded to the cent: "$0.35" for 10 SSL.
 */
export function usdAmount(micro: string | bigint): string {
  const value = toMicro(micro);
  const cents = divideRounded(
    value * BigInt(SSL_USD_PRICE.numerator) * 100n,
    BigInt(SSL_USD_PRICE.denominator) * MICRO_PER_SSL,
  );
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  const dollars = groupThousands((abs / 100n).toString());
  return `${sign}$${dollars}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * A label for every ledger transaction type (the contract's TRANSACTION_TYPES: the record must
 * name each one); a type this portal does not know yet shows its raw name. Genesis and reward
 * forfeits move system accounts only and never reach a user's wallet, but are named all the same.
 */
const TRANSACTION_LABELS: Record<TransactionType, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  subscription: 'Subscription',
  subscription_reward: 'Subscription Reward',
  monthly_reward: 'Monthly Reward',
  billing_change: 'Billing Change',
  activation: 'Activation',
  promotion: 'Promotion',
  social_reward: 'Social Reward',
  test_deposit: 'Test Deposit',
  refund: 'Refund',
  genesis: 'Reward Pool Genesis',
  staking_reward: 'Staking Reward',
  stake: 'Stake',
  unstake: 'Unstake',
  reward_release: 'Frozen Rewards Released',
  reward_forfeit: 'Frozen Rewards Forfeited',
  withdrawal_reversal: 'Withdrawal Reversal',
};

export function transactionLabel(type: string): string {
  return Object.hasOwn(TRANSACTION_LABELS, type)
    ? TRANSACTION_LABELS[type as TransactionType]
    : type;
}

export type AmountTone = 'positive' | 'negative' | 'zero';

/** spec 01 §3: positive amounts are green with +, negative red. */
export function signedAmount(micro: string | bigint): { text: string; tone: AmountTone } {
  const value = toMicro(micro);
  if (value > 0n) return { text: `+${sslAmount(value)}`, tone: 'positive' };
  if (value < 0n) return { text: sslAmount(value), tone: 'negative' };
  return { text: sslAmount(value), tone: 'zero' };
}

/** spec 01 §5: the card form takes USD with at most 2 decimals, at least $0.035. */
export const CARD_MIN_USD = '0.035';

/**
 * spec 01 §5: the card preview is floor(usd / 0.035) SSL. With usd = cents / 100 that is
 * floor(cents x 1000 / (100 x 35)) = floor(2 x cents / 7), exact in integers. Null for input that
 * is not a non-negative amount with at most 2 decimals.
 */
export function cardPreviewSsl(usdText: string): bigint | null {
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(usdText.trim());
  if (!match) return null;
  const cents = BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0') || '0');
  return (cents * BigInt(SSL_USD_PRICE.denominator)) / (100n * BigInt(SSL_USD_PRICE.numerator));
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}
