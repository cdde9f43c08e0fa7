import {
  type TransactionDescriptionCode,
  type WalletTransaction,
  isTransactionDescriptionCode,
} from '@scn/proto';
import { formatDate } from '../../lib/i18n/format';
import type { Locale } from '../../lib/i18n/locale';
import { solDecimal, wholeNumber } from './wallet-format';

/**
 * A ledger transaction's description in the reader's language: the server sends a
 * code and its values (`TransactionDescriptionValues` of @scn/proto), the catalogue `wallet` has
 * `transactionDescriptions.<code>`, an ICU message of the values formatted here (numbers in the
 * reader's digits, a period as its month). Server names and addresses go in the message's <bdi>.
 * A row without a code (written before the codes), or with one this build does not know, shows
 * the server's English `description` instead.
 */
export interface DescriptionMessage {
  code: TransactionDescriptionCode;
  values: Record<string, string | number>;
}

type Values = Readonly<Record<string, string | number | boolean>>;

/** `2026-10` as its month in the reader's language ("October 2026", fa «اکتبر ۲۰۲۶»). */
function periodText(period: unknown, locale: Locale): string {
  const match = typeof period === 'string' ? /^(\d{4})-(\d{2})$/.exec(period) : null;
  if (!match) return String(period ?? '');
  // The reward periods are calendar (Gregorian) months, whatever calendar the reader uses.
  return formatDate(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 15)), locale, {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
    calendar: 'gregory',
  });
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The message's values: what is a number or a month formatted for `locale`, the rest as given. */
function messageValues(
  code: TransactionDescriptionCode,
  values: Values,
  locale: Locale,
): Record<string, string | number> {
  switch (code) {
    case 'share_reward':
      return { platform: text(values.platform), primeTime: values.primeTime ? 'yes' : 'no' };
    case 'monthly_reward':
    case 'staking_income':
      return { period: periodText(values.period, locale) };
    case 'sol_deposit':
      return {
        sol: solDecimal(text(values.sol), locale),
        rate: typeof values.sslPerSol === 'number' ? wholeNumber(values.sslPerSol, locale) : '',
      };
    case 'token_deposit':
      return { currency: text(values.currency), amount: solDecimal(text(values.amount), locale) };
    case 'subscription_purchased':
      return { servers: typeof values.servers === 'number' ? values.servers : 0 };
    case 'rewards_forfeited':
    case 'refund_server_dropped':
    case 'server_replacement':
    case 'promotion':
    case 'billing_changed':
    case 'withdrawal':
      return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, text(value)]));
    default:
      return {};
  }
}

/** The catalogue message of a wallet row, or null: show its `description` as given. */
export function transactionDescription(
  transaction: Pick<WalletTransaction, 'descriptionCode' | 'descriptionValues'>,
  locale: Locale,
): DescriptionMessage | null {
  const code = transaction.descriptionCode;
  if (!isTransactionDescriptionCode(code)) return null;
  return { code, values: messageValues(code, transaction.descriptionValues ?? {}, locale) };
}
