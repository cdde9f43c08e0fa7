import {
  WITHDRAWAL_MESSAGES,
  type WithdrawalQuote,
  type WithdrawalsResponse,
  formatSsl,
  lamportsToSol,
  parseSslAmount,
  reservedAddressName,
  withdrawalQuote,
} from '@scn/proto';

/**
 * The Withdraw form's rules (spec 01 §5: amount above 0 up to balance minus frozen, step 0.01;
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
 * Spaces around what is typed are the form's, not the amount's: the dialog sends it trimmed.
 */
export function withdrawPreview(amount: string, sslPerSol: number | null): WithdrawalQuote | null {
  const micro = parseSslAmount(amount.trim());
  if (micro === null || micro <= 0n || sslPerSol === null) return null;
  return withdrawalQuote(micro, sslPerSol);
}

/** The first thing wrong with the form, as the message the server would give; null: none. */
export function withdrawFormProblem(form: WithdrawForm, limits: WithdrawLimits): string | null {
  const micro = parseSslAmount(form.amount.trim());
  if (micro === null || micro <= 0n) return WITHDRAWAL_MESSAGES.invalidAmount;
  const minimum = BigInt(limits.settings.minimumMicro);
  if (micro < minimum) return WITHDRAWAL_MESSAGES.belowMinimum(formatSsl(minimum));
  if (micro > BigInt(limits.availableMicro)) {
    return WITHDRAWAL_MESSAGES.overAvailable(formatSsl(limits.availableMicro));
  }
  if (micro > BigInt(limits.leftTodayMicro)) {
    return WITHDRAWAL_MESSAGES.dailyCap(
      formatSsl(limits.settings.dailyCapMicro),
      formatSsl(limits.leftTodayMicro),
    );
  }
  const address = form.destinationAddress.trim();
  if (address === '') return WITHDRAWAL_MESSAGES.addressRequired;
  if (!ADDRESS.test(address)) return WITHDRAWAL_MESSAGES.invalidAddress;
  const reserved = reservedAddressName(address);
  if (reserved !== null) return WITHDRAWAL_MESSAGES.reservedAddress(reserved);
  return null;
}

/** Lamports as SOL text without trailing zeros: 14582928n -> "0.014582928". */
export function solText(lamports: bigint | string): string {
  return lamportsToSol(BigInt(lamports));
}

/** Whether the list should be asked again soon (a payout still on its way). */
export function anyInFlight(withdrawals: ReadonlyArray<{ status: string }>): boolean {
  return withdrawals.some((w) => w.status === 'pending' || w.status === 'sent');
}
