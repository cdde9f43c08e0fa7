import { formatMicroSsl } from '../../lib/money';
import {
  ECONOMICS,
  type WithdrawalQuote,
  type WithdrawalsResponse,
  parseSslAmount,
  reservedAddressName,
  withdrawalQuote,
} from '@scn/proto';
import type { Locale } from '../../lib/i18n/locale';

import { type WalletMessage, withdrawMessage } from './wallet-messages';

/**
 * The Withdraw form's rules (docs/product/input-rules.md#market-and-account-input: amount above 0 up to balance minus frozen, step 0.01;
 * a Solana address required), checked here for a quick answer; the server decides.
 */
export interface WithdrawForm {
  amount: string;
  destinationAddress: string;
}

export interface WithdrawLimits {
  availableMicro: string;
  settings: WithdrawalsResponse['settings'];
  leftTodayMicro: string;
}

const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * The quote of what is typed (fee, net, lamports at the server's rate); null until it parses.
 * It is the server's own computation (`withdrawalQuote` of @scn/proto, which the control plane's
 * withdrawals.service.ts calls): the 25% protocol fee (ECONOMICS.withdrawalProtocolFeePercent)
 * rounded up to the micro-SSL, the net the rest, the lamports rounded down; bigint only.
 * Spaces around what is typed are the form's, not the amount's: the dialog sends it trimmed.
 */
export function withdrawPreview(amount: string, sslPerSol: number | null): WithdrawalQuote | null {
  const micro = parseSslAmount(amount.trim());
  if (micro === null || micro <= 0n || sslPerSol === null) return null;
  return withdrawalQuote(micro, sslPerSol, ECONOMICS.withdrawalProtocolFeePercent);
}

/**
 * The first thing wrong with the form, as the message the server would give (its catalogue key,
 * amounts in the reader's digits); null: none. A reserved address keeps Solana's English name
 * of the program (a proper name, as the explorers show it).
 */
export function withdrawFormProblem(
  form: WithdrawForm,
  limits: WithdrawLimits,
  locale: Locale,
): WalletMessage | null {
  const micro = parseSslAmount(form.amount.trim());
  if (micro === null || micro <= 0n) return withdrawMessage('invalidAmount');
  const minimum = BigInt(limits.settings.minimumMicro);
  if (micro < minimum) {
    return withdrawMessage('belowMinimum', {
      minimum: formatMicroSsl(minimum, locale, { decimals: 'cents', unit: false }),
    });
  }
  if (micro > BigInt(limits.availableMicro)) {
    return withdrawMessage('overAvailable', {
      available: formatMicroSsl(limits.availableMicro, locale, { decimals: 'cents', unit: false }),
    });
  }
  if (micro > BigInt(limits.leftTodayMicro)) {
    return withdrawMessage('dailyCap', {
      cap: formatMicroSsl(limits.settings.dailyCapMicro, locale, {
        decimals: 'cents',
        unit: false,
      }),
      left: formatMicroSsl(limits.leftTodayMicro, locale, { decimals: 'cents', unit: false }),
    });
  }
  const address = form.destinationAddress.trim();
  if (address === '') return withdrawMessage('addressRequired');
  if (!ADDRESS.test(address)) return withdrawMessage('invalidAddress');
  const reserved = reservedAddressName(address);
  if (reserved !== null) return withdrawMessage('reservedAddress', { name: reserved });
  return null;
}

/** Whether the list should be asked again soon (a payout still on its way). */
export function anyInFlight(withdrawals: ReadonlyArray<{ status: string }>): boolean {
  return withdrawals.some((w) => w.status === 'pending' || w.status === 'sent');
}
