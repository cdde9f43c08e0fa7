import { type EarningsLine, formatSsl, type ServerStatement, toMicro } from '@scn/proto';

/**
 * How a statement reads (issue 18 §6: every line explained). The figures and the sentences are
 * the server's; this only names each input and writes its value in words a person reads: no
 * rule of the economy is applied here.
 */

/** 2 decimals, thousands grouped: "1,234.50" (spec 01 §9). */
export function sslAmount(micro: string | bigint): string {
  const [whole = '', fraction = ''] = formatSsl(micro).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** Every micro-SSL: "1,234.567891 SSL", for the title of a rounded amount. */
export function exactSsl(micro: string | bigint): string {
  const value = toMicro(micro);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = (abs / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${(abs % 1_000_000n).toString().padStart(6, '0')} SSL`;
}

/** What each line's amount is. */
export const RESULT_CAPTIONS: Record<EarningsLine['key'], string> = {
  base: 'Pro rata base',
  reliability: 'Earned after slashing',
  frozen: 'Frozen',
  halving: 'Adds to the stake asked',
  subscriptions: 'Paid by clients',
  ad_bonus: 'Ad bonus',
  income: 'Node income',
  budget: 'From the reward pool',
  payout: 'Paid out',
};

const INPUT_LABELS: Record<string, string> = {
  tier: 'Tier',
  tierBaseMicro: 'Tier base a month',
  halvingCut: 'Halving cut',
  periodSeconds: 'Length of the month',
  observedSeconds: 'Enrolled in the month',
  reliabilityBasisPoints: 'Time-weighted reliability',
  slashBasisPoints: 'Slash',
  reliabilitySeconds: 'Reliability x seconds',
  belowSeconds: 'Time below 95%',
  frozenMicro: 'Frozen',
  payableMicro: 'Payable now',
  nodeYear: 'Year of the node',
  enrolledAt: 'Enrolled',
  hardwareSince: 'Hardware since',
  stakeMicro: 'Stake',
  requiredBeforeMicro: 'Asked by earlier months',
  clients: 'Client subscriptions',
  perClientMicro: 'Per client',
  earnedMicro: 'Earned base',
  subscriptionMicro: 'Subscriptions',
  adBonusMicro: 'Ad bonus',
  poolWalletMicro: 'Owed to the wallet',
  poolEscrowMicro: 'Owed to the escrow',
  withheld: 'Withheld',
  autoStakePercent: 'Auto-stake',
  walletMicro: 'To the node wallet',
  autoStakedMicro: 'Auto-staked',
  escrowedMicro: 'To the escrow',
};

/** "observedSeconds" -> "Observed seconds", for an input this file does not know yet. */
function wordsOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function inputLabel(name: string): string {
  return INPUT_LABELS[name] ?? wordsOf(name);
}

const DAY = 86_400;

function duration(seconds: number): string {
  if (seconds >= DAY) return `${(seconds / DAY).toFixed(1)} days`;
  if (seconds >= 3600 || seconds === 0) return `${(seconds / 3600).toFixed(1)} hours`;
  return `${Math.round(seconds / 60)} minutes`;
}

function grouped(value: string | number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** One input's value in words, by the contract's naming (amounts end in `Micro`, etc.). */
export function inputValue(name: string, value: EarningsLine['inputs'][string]): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (name.endsWith('Micro')) return `${sslAmount(String(value))} SSL`;
  if (name.endsWith('BasisPoints')) return `${(Number(value) / 100).toFixed(2)}%`;
  if (name.endsWith('Percent')) return `${value}%`;
  if (name === 'reliabilitySeconds') return grouped(value);
  if (name.endsWith('Seconds')) return duration(Number(value));
  if (name.endsWith('At') || name.endsWith('Since')) {
    const at = new Date(String(value));
    return Number.isNaN(at.getTime()) ? String(value) : at.toISOString().slice(0, 10);
  }
  return typeof value === 'number' ? grouped(value) : value;
}

export interface InputRow {
  name: string;
  label: string;
  value: string;
}

/**
 * A line's inputs as label and value, in the server's order. The budget scale's two amounts
 * (budget / demand, or 1 / 1) read as one factor.
 */
export function inputRows(line: Pick<EarningsLine, 'inputs'>): InputRow[] {
  const rows: InputRow[] = [];
  const { scaleNumeratorMicro: numerator, scaleDenominatorMicro: denominator } = line.inputs;
  for (const [name, value] of Object.entries(line.inputs)) {
    if (name === 'scaleDenominatorMicro') continue;
    if (name === 'scaleNumeratorMicro') {
      rows.push({ name: 'scale', label: 'Budget scale', value: scaleText(numerator, denominator) });
      continue;
    }
    rows.push({ name, label: inputLabel(name), value: inputValue(name, value) });
  }
  return rows;
}

function scaleText(numerator: unknown, denominator: unknown): string {
  if (typeof numerator !== 'string' || typeof denominator !== 'string') return 'None';
  const top = toMicro(numerator);
  const bottom = toMicro(denominator);
  if (bottom <= 0n || top === bottom) return 'None: paid in full';
  // Two decimals of a percent, floored like the payouts.
  const hundredths = (top * 10_000n) / bottom;
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}% (budget / demand)`;
}

/** The line of a server's statement that says where it stands. */
export function statementStatus(statement: Pick<ServerStatement, 'status' | 'paidAt'>): string {
  switch (statement.status) {
    case 'dry_run':
      return 'So far, not final';
    case 'computed':
      return 'Computed, payment pending';
    case 'paid':
      return statement.paidAt ? `Paid on ${statement.paidAt.slice(0, 10)}` : 'Paid';
    case 'withheld':
      return 'Withheld: not paid';
  }
}

const SERVER_STATES: Record<ServerStatement['serverState'], string | null> = {
  active: null,
  hidden: 'Hidden (below 95%)',
  banned: 'Banned',
  deleted: 'Deleted',
};

/** A badge for a server that is not simply active (null: nothing to say). */
export function serverStateBadge(state: ServerStatement['serverState']): string | null {
  return SERVER_STATES[state];
}
