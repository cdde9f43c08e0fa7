import { randomBytes, randomUUID } from 'node:crypto';
import {
  type Earnings,
  type EarningsLineKey,
  type EarningsResponse,
  REWARDS_ROUTES,
  type VpsTierId,
} from '@scn/proto';
import {
  monthsSinceGenesis,
  periodBounds,
} from '../../../../control-plane/src/rewards/reward-period';
import {
  autoStakeMicro,
  baseReward,
  budgetScale,
  halvingCutApplies,
  monthlyBudgetMicro,
  nodeYear,
  type ReliabilityFacts,
  requiredStakeMicro,
  scaleMicro,
  stakingIncomeMicro,
} from '../../../../control-plane/src/rewards/reward-rules';
import { poolBalance } from '../../../../control-plane/test/support/reward-fixtures';
import type { Account } from './portal';
import type { Stack } from './stack';

/**
 * The earnings journey's facts and expectations: a node as an enrolled agent
 * leaves its row, the reliability history as stored facts, and each month's statement computed
 * here from the engine's pure rules (control-plane/src/rewards/reward-rules.ts), never from the
 * answer under test.
 */

type Db = Stack['db'];

/**
 * A server as an enrolled agent leaves it after a report at `reportedAt` (written to the
 * database like node-dashboard.e2e-spec.ts does): `createdAt` is when it enrolled.
 */
export async function insertReportingServer(
  db: Db,
  row: { ownerUuid: string; name: string; tier: VpsTierId; createdAt: Date; reportedAt: Date },
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       active_clients, ping_ms, uptime_seconds, reliability_at_report, last_report_at,
       last_credited_at, created_at)
     VALUES ($1, $2, $3, 'agent', $4, $5, '203.0.113.7', 443, '{}'::jsonb, 0, 42, 86400, 98, $6,
       $6, $7)`,
    [
      id,
      row.ownerUuid,
      row.name,
      row.tier,
      randomBytes(32).toString('hex'),
      row.reportedAt,
      row.createdAt,
    ],
  );
  return id;
}

/**
 * The agent's report at `at` (every 60 s, it keeps the server fresh all month): written before
 * the clock moves there, so the reliability sweep that runs on the move finds it reporting, as
 * it would have all along. Without it the sweep would see a month of silence and ban the server.
 */
export async function reportAt(db: Db, serverId: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE servers SET last_report_at = $2, last_credited_at = $2, reliability_at_report = 98
     WHERE id = $1`,
    [serverId, at],
  );
}

/** The server's reliability facts of a period, as stored (server_reliability_days). */
export async function storedFacts(
  db: Db,
  serverId: string,
  period: string,
): Promise<ReliabilityFacts> {
  const { start, end } = periodBounds(period);
  const [row] = await db.query<{ observed: number; reliability: string; below: number }>(
    `SELECT COALESCE(sum(observed_seconds), 0)::int AS observed,
            COALESCE(sum(reliability_seconds), 0)::text AS reliability,
            COALESCE(sum(below_seconds), 0)::int AS below
     FROM server_reliability_days WHERE server_id = $1 AND day >= $2::date AND day < $3::date`,
    [serverId, start.toISOString().slice(0, 10), end.toISOString().slice(0, 10)],
  );
  // More seconds than the month has: the history was written twice (the fixture and the sweep).
  const periodSeconds = (end.getTime() - start.getTime()) / 1000;
  if (row!.observed > periodSeconds)
    throw new Error(`${period}: ${row!.observed} s of history in a ${periodSeconds} s month`);
  return {
    observedSeconds: row!.observed,
    reliabilitySeconds: BigInt(row!.reliability),
    belowSeconds: row!.below,
  };
}

/** The pool now and the period's place in the reward cycle (from the genesis transaction). */
export async function poolFacts(
  db: Db,
  period: string,
): Promise<{ poolMicro: bigint; monthIndex: number }> {
  const [genesis] = await db.query<{ created_at: Date }>(
    `SELECT created_at FROM ledger_transactions WHERE external_ref = 'genesis:reward_pool'`,
  );
  return {
    poolMicro: await poolBalance(db),
    monthIndex: monthsSinceGenesis(genesis!.created_at, period),
  };
}

export interface MonthInput {
  tier: VpsTierId;
  period: string;
  facts: ReliabilityFacts;
  enrolledAt: Date;
  stakeAtStartMicro: bigint;
  stakeAtEndMicro: bigint;
  /** What halving protection asked of the earlier months' income. */
  requiredBeforeMicro: bigint;
  autoStakePercent: number;
  /** The pool when the month is paid, and the month's index in the cycle. */
  poolMicro: bigint;
  monthIndex: number;
}

export interface ExpectedMonth {
  /** Each line's amount, by its key. */
  lines: Record<EarningsLineKey, bigint>;
  totals: Record<keyof Earnings['totals'], bigint>;
  staking: { startMicro: bigint; endMicro: bigint; incomeMicro: bigint; paidMicro: bigint };
}

/**
 * One active server's month and its operator's staking, by the rules: base pro rata, slashed by
 * 2 x (1 - R), the part below 95% frozen to the escrow, income, the halving requirement, the
 * budget scale over the network's demand (this suite's one operator), the automatic stake.
 */
export function expectedMonth(input: MonthInput): ExpectedMonth {
  const { end, seconds } = periodBounds(input.period);
  const cut = halvingCutApplies({
    enrolledAt: input.enrolledAt,
    hardwareSince: input.enrolledAt,
    at: end,
    stakeMicro: input.stakeAtEndMicro,
    requiredStakeMicro: input.requiredBeforeMicro,
  });
  const base = baseReward(input.tier, input.facts, seconds, cut);
  const income = base.earnedMicro; // no subscriptions in the journey, no ad bonus yet
  const stakingIncome = stakingIncomeMicro(input.stakeAtStartMicro, input.stakeAtEndMicro);
  const demand = base.payableMicro + base.frozenMicro + stakingIncome;
  const scale = budgetScale(demand, monthlyBudgetMicro(input.poolMicro, input.monthIndex));
  const paidPayable = scaleMicro(base.payableMicro, scale);
  const escrowed = scaleMicro(base.frozenMicro, scale);
  const autoStaked = autoStakeMicro(paidPayable, input.autoStakePercent);
  const wallet = paidPayable - autoStaked;
  const stakingPaid = scaleMicro(stakingIncome, scale);
  return {
    lines: {
      base: base.proRataMicro,
      reliability: base.earnedMicro,
      frozen: base.frozenMicro,
      halving: requiredStakeMicro(income, nodeYear(input.enrolledAt, end)),
      subscriptions: 0n,
      ad_bonus: 0n,
      income,
      budget: paidPayable + escrowed,
      payout: wallet + autoStaked + escrowed,
    },
    totals: {
      incomeMicro: income,
      walletMicro: wallet,
      autoStakedMicro: autoStaked,
      escrowedMicro: escrowed,
      stakingMicro: stakingPaid,
    },
    staking: {
      startMicro: input.stakeAtStartMicro,
      endMicro: input.stakeAtEndMicro,
      incomeMicro: stakingIncome,
      paidMicro: stakingPaid,
    },
  };
}

/** GET the operator's earnings of a period through the API. */
export async function fetchEarnings(
  stack: Stack,
  account: Account,
  period: string,
): Promise<Earnings> {
  const response = await fetch(`${stack.baseUrl}${REWARDS_ROUTES.earnings(account.uuid, period)}`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  if (!response.ok) throw new Error(`earnings answered ${response.status}`);
  return ((await response.json()) as EarningsResponse).earnings;
}

/** Waits until the monthly job has written and paid the period's statements. */
export async function waitForPaidMonth(
  stack: Stack,
  account: Account,
  period: string,
): Promise<Earnings> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const earnings = await fetchEarnings(stack, account, period);
    const paid =
      earnings.kind === 'statement' &&
      earnings.servers.every((s) => s.status === 'paid') &&
      (earnings.staking === null || earnings.staking.status === 'paid');
    if (paid) return earnings;
    if (Date.now() > deadline) {
      throw new Error(`the monthly run of ${period} did not pay within 30 s: ${earnings.kind}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
