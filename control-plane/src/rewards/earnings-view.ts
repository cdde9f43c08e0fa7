import {
  ECONOMICS,
  type EarningsLine,
  formatSsl,
  PRICING,
  type ServerStatement,
  type StakingStatement,
  VPS_TIERS,
} from '@scn/proto';
import type { StakingRow, StatementRow } from './reward-computer';
import { serverState } from './reward-statement';
import type { OwnedServer } from './reward-statements.repository';

/**
 * A statement line by line, each with its inputs, result and a sentence (every
 * payout explainable). Pure: the same for a stored statement and a dry run.
 */

const DAY_SECONDS = 86_400;
const ssl = (micro: string | bigint) => `${formatSsl(micro)} SSL`;
const percent = (basisPoints: number) => `${(basisPoints / 100).toFixed(2)}%`;
const days = (seconds: number) => (seconds / DAY_SECONDS).toFixed(1);
const hours = (seconds: number) => (seconds / 3600).toFixed(1);
const date = (at: Date) => at.toISOString().slice(0, 10);

function tierName(tier: string | null): string {
  const found = VPS_TIERS.find((t) => t.id === tier);
  return found ? `${found.id} (${found.name})` : 'no tier';
}

function line(
  key: EarningsLine['key'],
  label: string,
  inputs: EarningsLine['inputs'],
  resultMicro: bigint | string,
  explanation: string,
): EarningsLine {
  return { key, label, inputs, resultMicro: resultMicro.toString(), explanation };
}

function baseLine(s: StatementRow): EarningsLine {
  const inputs = {
    tier: s.tier,
    tierBaseMicro: s.tierBaseMicro,
    halvingCut: s.halvingCut,
    periodSeconds: s.periodSeconds,
    observedSeconds: s.observedSeconds,
  };
  if (BigInt(s.tierBaseMicro) === 0n) {
    return line(
      'base',
      'Base reward',
      inputs,
      s.proRataMicro,
      'No tier (a server added without the agent): no base reward.',
    );
  }
  const halved = s.halvingCut
    ? `, halved by halving protection to ${ssl((BigInt(s.tierBaseMicro) * BigInt(100 - ECONOMICS.hardwareAgeCutPercent)) / 100n)}`
    : '';
  return line(
    'base',
    'Base reward',
    inputs,
    s.proRataMicro,
    `Tier ${tierName(s.tier)}: ${ssl(s.tierBaseMicro)} a month${halved}, for ${days(s.observedSeconds)} of ${days(s.periodSeconds)} days enrolled: ${ssl(s.proRataMicro)}.`,
  );
}

function reliabilityLine(s: StatementRow): EarningsLine {
  return line(
    'reliability',
    'Reliability and slashing',
    {
      reliabilityBasisPoints: s.reliabilityBasisPoints,
      slashBasisPoints: s.slashBasisPoints,
      reliabilitySeconds: s.reliabilitySeconds,
      observedSeconds: s.observedSeconds,
    },
    s.earnedMicro,
    `Time-weighted reliability ${percent(s.reliabilityBasisPoints)}: slash 2 x (100% - ${percent(s.reliabilityBasisPoints)}) = ${percent(s.slashBasisPoints)} of the base (50% reliability or less slashes all of it): ${ssl(s.earnedMicro)} earned.`,
  );
}

function frozenLine(s: StatementRow): EarningsLine {
  const text =
    s.belowSeconds === 0
      ? `Never below ${ECONOMICS.hideBelowReliabilityPercent}%: nothing frozen.`
      : `${hours(s.belowSeconds)} hours below ${ECONOMICS.hideBelowReliabilityPercent}%: the ${ssl(s.frozenMicro)} earned then wait in the server's escrow until it is back at ${ECONOMICS.hideBelowReliabilityPercent}% or more, and return to the pool if it is banned (${ECONOMICS.recoveryDays} days to recover).`;
  return line(
    'frozen',
    'Frozen below 95%',
    { belowSeconds: s.belowSeconds, frozenMicro: s.frozenMicro, payableMicro: s.payableMicro },
    s.frozenMicro,
    text,
  );
}

function halvingLine(s: StatementRow): EarningsLine {
  const share = ECONOMICS.stakingShareByYear[Math.min(s.nodeYear, 4) - 1];
  const state = s.halvingCut
    ? `Cut this month: the stake (${ssl(s.stakeMicro)}) is short of what earlier months asked (${ssl(s.requiredBeforeMicro)}), so rewards and allowed clients are halved.`
    : `Not cut this month (stake ${ssl(s.stakeMicro)}, earlier months asked ${ssl(s.requiredBeforeMicro)}).`;
  return line(
    'halving',
    'Halving protection',
    {
      nodeYear: s.nodeYear,
      enrolledAt: s.enrolledAt.toISOString(),
      hardwareSince: s.hardwareSince.toISOString(),
      stakeMicro: s.stakeMicro,
      requiredBeforeMicro: s.requiredBeforeMicro,
      halvingCut: s.halvingCut,
    },
    s.requiredStakeMicro,
    `Year ${s.nodeYear} of the node (enrolled ${date(s.enrolledAt)}, hardware since ${date(s.hardwareSince)}): ${share}% of this month's income, ${ssl(s.requiredStakeMicro)}, adds to the stake halving protection asks for. After year ${ECONOMICS.hardwareAgeYears}, or ${ECONOMICS.hardwareAgeYears} years of hardware without an upgrade, rewards and allowed clients are cut by ${ECONOMICS.hardwareAgeCutPercent}% unless the stake covers it. ${state}`,
  );
}

function subscriptionsLine(s: StatementRow): EarningsLine {
  return line(
    'subscriptions',
    'Subscriptions',
    {
      clients: s.subscriptionClients,
      perClientMicro: (BigInt(PRICING.operatorRewardSsl) * 1_000_000n).toString(),
    },
    s.subscriptionMicro,
    `${s.subscriptionClients} client subscription(s) paid ${ssl(s.subscriptionMicro)} for this server this month (${PRICING.operatorRewardSsl} SSL per server and period). Clients pay these, not the pool: they reached your wallet when paid, frozen ${PRICING.operatorRewardFrozenDays} days.`,
  );
}

function adLine(s: StatementRow): EarningsLine {
  return line(
    'ad_bonus',
    'Ad bonus',
    {},
    s.adBonusMicro,
    'Share-and-earn rewards paid to your node wallet in the period (each paid 24 hours after its share; counted once, on your first server).',
  );
}

function incomeLine(s: StatementRow): EarningsLine {
  return line(
    'income',
    'Node income',
    {
      earnedMicro: s.earnedMicro,
      subscriptionMicro: s.subscriptionMicro,
      adBonusMicro: s.adBonusMicro,
    },
    s.incomeMicro,
    `Base reward + clients x ${PRICING.operatorRewardSsl} + ad bonus = ${ssl(s.earnedMicro)} + ${ssl(s.subscriptionMicro)} + ${ssl(s.adBonusMicro)} = ${ssl(s.incomeMicro)}.`,
  );
}

const WITHHELD_TEXT = {
  hidden:
    'The server was below 95% when the month was paid: its whole reward goes to its escrow until it recovers.',
  banned:
    'The server is banned: rewards of a banned server are never paid (they stay in the pool).',
  deleted: 'The server was deleted: its frozen part can never be released and stays in the pool.',
} as const;

function budgetLine(s: StatementRow): EarningsLine {
  const owed = BigInt(s.poolWalletMicro) + BigInt(s.poolEscrowMicro);
  const paid = BigInt(s.paidPayableMicro) + BigInt(s.escrowedMicro);
  const scaled = s.scaleNumeratorMicro !== s.scaleDenominatorMicro;
  const parts = [
    s.withheld ? WITHHELD_TEXT[s.withheld] : null,
    `Owed by the pool: ${ssl(owed)} (${ssl(s.poolWalletMicro)} to pay, ${ssl(s.poolEscrowMicro)} to the escrow).`,
    scaled
      ? `The month's rewards passed its budget, so every payout is scaled by ${ssl(s.scaleNumeratorMicro)} / ${ssl(s.scaleDenominatorMicro)}: ${ssl(paid)}.`
      : "Within the month's budget: paid in full.",
  ];
  return line(
    'budget',
    'From the reward pool',
    {
      poolWalletMicro: s.poolWalletMicro,
      poolEscrowMicro: s.poolEscrowMicro,
      scaleNumeratorMicro: s.scaleNumeratorMicro,
      scaleDenominatorMicro: s.scaleDenominatorMicro,
      withheld: s.withheld,
    },
    paid,
    parts.filter(Boolean).join(' '),
  );
}

function payoutLine(s: StatementRow): EarningsLine {
  const total = BigInt(s.walletMicro) + BigInt(s.autoStakedMicro) + BigInt(s.escrowedMicro);
  return line(
    'payout',
    'Payout',
    {
      autoStakePercent: s.autoStakePercent,
      walletMicro: s.walletMicro,
      autoStakedMicro: s.autoStakedMicro,
      escrowedMicro: s.escrowedMicro,
    },
    total,
    `To your node wallet: ${ssl(s.walletMicro)} (frozen ${PRICING.operatorRewardFrozenDays} days). Auto-stake ${s.autoStakePercent}%: ${ssl(s.autoStakedMicro)} to your stake. To the server's escrow: ${ssl(s.escrowedMicro)}.`,
  );
}

export function serverStatementView(
  s: StatementRow,
  serverName: string | null,
  dryRun: boolean,
): ServerStatement {
  return {
    serverId: s.serverId,
    serverName,
    tier: s.tier,
    serverState: s.serverState,
    status: dryRun ? 'dry_run' : s.status,
    withheld: s.withheld,
    lines: [
      baseLine(s),
      reliabilityLine(s),
      frozenLine(s),
      halvingLine(s),
      subscriptionsLine(s),
      adLine(s),
      incomeLine(s),
      budgetLine(s),
      payoutLine(s),
    ],
    incomeMicro: s.incomeMicro,
    walletMicro: s.walletMicro,
    autoStakedMicro: s.autoStakedMicro,
    escrowedMicro: s.escrowedMicro,
    paidAt: s.paidAt?.toISOString() ?? null,
    ledgerTransactionId: s.ledgerTransactionId,
    firstFactsPending: false,
  };
}

/**
 * A server of the operator with no facts in the current month yet (enrolled before the history
 * sweep wrote its first): listed from the moment it exists, no lines, every figure zero.
 */
export function pendingServerView(server: OwnedServer): ServerStatement {
  return {
    serverId: server.id,
    serverName: server.name,
    tier: server.tier,
    serverState: serverState(server),
    status: 'dry_run',
    withheld: null,
    lines: [],
    incomeMicro: '0',
    walletMicro: '0',
    autoStakedMicro: '0',
    escrowedMicro: '0',
    paidAt: null,
    ledgerTransactionId: null,
    firstFactsPending: true,
  };
}

export function stakingView(s: StakingRow, dryRun: boolean): StakingStatement {
  const start = BigInt(s.stakeAtStartMicro);
  const end = BigInt(s.stakeAtEndMicro);
  const held = start < end ? start : end;
  const scaled = s.scaleNumeratorMicro !== s.scaleDenominatorMicro;
  return {
    stakeAtStartMicro: s.stakeAtStartMicro,
    stakeAtEndMicro: s.stakeAtEndMicro,
    incomeMicro: s.incomeMicro,
    paidMicro: s.paidMicro,
    status: dryRun ? 'dry_run' : s.status,
    explanation: `Stake held through the month: the smaller of ${ssl(start)} at its start and ${ssl(end)} at its end, ${ssl(held > 0n ? held : 0n)}, x ${ECONOMICS.stakingApyPercent}% / 12 = ${ssl(s.incomeMicro)}${scaled ? `, scaled by the month's budget to ${ssl(s.paidMicro)}` : ''}; paid from the pool to your node wallet, frozen ${PRICING.operatorRewardFrozenDays} days.`,
  };
}

/** The pool line of a period: its balance, the cycle's budget, the demand and the scale. */
export function poolView(pool: {
  poolMicro: bigint;
  monthIndex: number;
  budgetMicro: bigint;
  demandMicro: bigint;
  scaleNumeratorMicro: bigint;
  scaleDenominatorMicro: bigint;
}): {
  poolMicro: string;
  monthIndex: number;
  budgetMicro: string;
  demandMicro: string;
  scaleNumeratorMicro: string;
  scaleDenominatorMicro: string;
  explanation: string;
} {
  const cycle = ECONOMICS.rewardCycleMonths;
  const inCycle = ((pool.monthIndex % cycle) + cycle) % cycle;
  const scaled = pool.scaleNumeratorMicro !== pool.scaleDenominatorMicro;
  return {
    poolMicro: pool.poolMicro.toString(),
    monthIndex: pool.monthIndex,
    budgetMicro: pool.budgetMicro.toString(),
    demandMicro: pool.demandMicro.toString(),
    scaleNumeratorMicro: pool.scaleNumeratorMicro.toString(),
    scaleDenominatorMicro: pool.scaleDenominatorMicro.toString(),
    explanation: `Reward pool ${ssl(pool.poolMicro)}; month ${inCycle + 1} of the ${cycle}-month cycle, so the budget is the pool / ${cycle - inCycle} months left = ${ssl(pool.budgetMicro)}. The network's rewards and staking incomes ask ${ssl(pool.demandMicro)}: ${scaled ? `over the budget, so every payout is scaled by ${ssl(pool.scaleNumeratorMicro)} / ${ssl(pool.scaleDenominatorMicro)}` : 'within the budget, paid in full'}.`,
  };
}
