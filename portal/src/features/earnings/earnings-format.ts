import type { EarningsLine, ServerStatement } from '@scn/proto';
import { toMicro } from '@scn/proto';

/**
 * How a statement reads (every line explained). The figures and the sentences are
 * the server's; this only says what kind of value each input is, so the page writes it in the
 * reader's language (lib/i18n/format.ts): no rule of the economy is applied here.
 */

/** The inputs the catalogue names (`earnings.input.<name>`); another is shown by its own name. */
export const KNOWN_INPUTS = [
  'tier',
  'tierBaseMicro',
  'halvingCut',
  'periodSeconds',
  'observedSeconds',
  'reliabilityBasisPoints',
  'slashBasisPoints',
  'reliabilitySeconds',
  'belowSeconds',
  'frozenMicro',
  'payableMicro',
  'nodeYear',
  'enrolledAt',
  'hardwareSince',
  'stakeMicro',
  'requiredBeforeMicro',
  'clients',
  'perClientMicro',
  'earnedMicro',
  'subscriptionMicro',
  'adBonusMicro',
  'poolWalletMicro',
  'poolEscrowMicro',
  'withheld',
  'autoStakePercent',
  'walletMicro',
  'autoStakedMicro',
  'escrowedMicro',
  'scale',
] as const;
export type KnownInput = (typeof KNOWN_INPUTS)[number];

export function isKnownInput(name: string): name is KnownInput {
  return (KNOWN_INPUTS as readonly string[]).includes(name);
}

/** "observedSeconds" -> "Observed seconds", for an input this file does not know yet. */
export function wordsOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const DAY = 86_400;

/** One input's value, by the contract's naming (amounts end in `Micro`, etc.). */
export type InputValue =
  | { kind: 'none' }
  | { kind: 'flag'; value: boolean }
  | { kind: 'amount'; micro: string }
  | { kind: 'percent'; value: number }
  | { kind: 'count'; value: number }
  | { kind: 'days' | 'hours' | 'minutes'; value: number }
  | { kind: 'date'; iso: string }
  | { kind: 'text'; value: string }
  /** The budget scale: null when paid in full, else hundredths of a percent (floored). */
  | { kind: 'scale'; hundredths: bigint | null };

export function inputValue(name: string, value: EarningsLine['inputs'][string]): InputValue {
  if (value === null) return { kind: 'none' };
  if (typeof value === 'boolean') return { kind: 'flag', value };
  if (name.endsWith('Micro')) return { kind: 'amount', micro: String(value) };
  if (name.endsWith('BasisPoints')) return { kind: 'percent', value: Number(value) / 100 };
  if (name.endsWith('Percent')) return { kind: 'percent', value: Number(value) };
  if (name === 'reliabilitySeconds') return { kind: 'count', value: Number(value) };
  if (name.endsWith('Seconds')) {
    const seconds = Number(value);
    if (seconds >= DAY) return { kind: 'days', value: Math.round((seconds / DAY) * 10) / 10 };
    if (seconds >= 3600 || seconds === 0)
      return { kind: 'hours', value: Math.round((seconds / 3600) * 10) / 10 };
    return { kind: 'minutes', value: Math.round(seconds / 60) };
  }
  if (name.endsWith('At') || name.endsWith('Since')) {
    const at = new Date(String(value));
    return Number.isNaN(at.getTime())
      ? { kind: 'text', value: String(value) }
      : { kind: 'date', iso: at.toISOString() };
  }
  return typeof value === 'number' ? { kind: 'count', value } : { kind: 'text', value };
}

export interface InputRow {
  name: string;
  value: InputValue;
}

/**
 * A line's inputs in the server's order. The budget scale's two amounts (budget / demand, or
 * 1 / 1) read as one factor.
 */
export function inputRows(line: Pick<EarningsLine, 'inputs'>): InputRow[] {
  const rows: InputRow[] = [];
  const { scaleNumeratorMicro: numerator, scaleDenominatorMicro: denominator } = line.inputs;
  for (const [name, value] of Object.entries(line.inputs)) {
    if (name === 'scaleDenominatorMicro') continue;
    if (name === 'scaleNumeratorMicro') {
      rows.push({
        name: 'scale',
        value: { kind: 'scale', hundredths: scale(numerator, denominator) },
      });
      continue;
    }
    rows.push({ name, value: inputValue(name, value) });
  }
  return rows;
}

/** Hundredths of a percent, floored like the payouts; null: no scale (paid in full). */
function scale(numerator: unknown, denominator: unknown): bigint | null {
  if (typeof numerator !== 'string' || typeof denominator !== 'string') return null;
  const top = toMicro(numerator);
  const bottom = toMicro(denominator);
  if (bottom <= 0n || top === bottom) return null;
  return (top * 10_000n) / bottom;
}

/** Where a server's statement stands (`earnings.status.<key>`). */
export function statementStatus(
  statement: Pick<ServerStatement, 'status' | 'paidAt'>,
): 'dryRun' | 'computed' | 'paidOn' | 'paid' | 'withheld' {
  switch (statement.status) {
    case 'dry_run':
      return 'dryRun';
    case 'computed':
      return 'computed';
    case 'paid':
      return statement.paidAt ? 'paidOn' : 'paid';
    case 'withheld':
      return 'withheld';
  }
}
