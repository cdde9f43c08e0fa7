/**
 * Every periodic job of the control plane, and every PostgreSQL advisory lock id the code takes,
 * in one place (job-registry.spec.ts fails on a name or an id used twice, and on a lock id
 * written anywhere else in src/).
 *
 * - `name`: the job's key in `job_runs` and in the metrics (at most 40 characters).
 * - `intervalMs`: how often it is due; one run per period (floor(clock time / interval)) across
 *   every replica (job-scheduler.ts).
 * - `lockId`: the advisory lock the job's work holds while it runs (`TransactionRunner.exclusive`
 *   or `whileHolding`): a run the test or a kick starts out of schedule, or a run that outlives
 *   its period, never overlaps another. null: the work needs none.
 * - `scope`: 'cluster' (once per period across the replicas) or 'replica' (work each replica
 *   does for itself, such as copies in its own DATA_DIR: every replica runs it, nothing recorded).
 */
export interface JobDefinition {
  readonly name: string;
  readonly intervalMs: number;
  readonly lockId: number | null;
  readonly scope: 'cluster' | 'replica';
}

const MINUTE_MS = 60_000;

export const JOBS = {
  /** agent-reports: reliability history, the 95%/14-day lifecycle, the market's decay. */
  reliabilitySweep: {
    name: 'reliability-sweep',
    intervalMs: MINUTE_MS,
    lockId: 4_202_612,
    scope: 'cluster',
  },
  /** manual-servers: the VLESS check of servers added without the agent. */
  manualServerChecks: {
    name: 'manual-server-checks',
    intervalMs: MINUTE_MS,
    lockId: 4_202_615,
    scope: 'cluster',
  },
  /** subscriptions: pauses ended, renewals, expiries. */
  subscriptionBilling: {
    name: 'subscription-billing',
    intervalMs: MINUTE_MS,
    lockId: 4_202_640,
    scope: 'cluster',
  },
  /** subscriptions: servers that cannot serve dropped from paid periods (refunded). */
  serverDrop: {
    name: 'server-drop',
    intervalMs: MINUTE_MS,
    lockId: 4_202_653,
    scope: 'cluster',
  },
  /** deposits: one look at the deposit address each second while a request is open. */
  depositWatcher: {
    name: 'deposit-watcher',
    intervalMs: 1000,
    lockId: 4_202_670,
    scope: 'cluster',
  },
  /** withdrawals: payouts signed, sent and confirmed (also kicked after each withdrawal). */
  withdrawalPayouts: {
    name: 'withdrawal-payouts',
    intervalMs: 1000,
    lockId: 4_202_671,
    scope: 'cluster',
  },
  /** deposits: per-account deposit addresses swept to the treasury. */
  depositSweeps: { name: 'deposit-sweeps', intervalMs: 5000, lockId: 4_202_672, scope: 'cluster' },
  /** deposits: the per-account deposit addresses' scanner. */
  depositAddressWatcher: {
    name: 'deposit-address-watcher',
    intervalMs: 1000,
    lockId: 4_202_673,
    scope: 'cluster',
  },
  /** subscriptions: servers blocked in their clients' networks replaced. */
  serverReplacement: {
    name: 'server-replacement',
    intervalMs: MINUTE_MS,
    lockId: 4_202_674,
    scope: 'cluster',
  },
  /** reachability: pruning and port regeneration (interval: REACHABILITY_JOB_INTERVAL_MS). */
  reachabilityUpkeep: {
    name: 'reachability-upkeep',
    intervalMs: MINUTE_MS,
    lockId: 4_202_675,
    scope: 'cluster',
  },
  /** rewards: the monthly run, escrow release and forfeit, ban e-mails. */
  rewards: { name: 'rewards', intervalMs: 5 * MINUTE_MS, lockId: 4_202_680, scope: 'cluster' },
  /** social: share rewards whose 24 hours have passed. */
  shareRewards: {
    name: 'share-rewards',
    intervalMs: MINUTE_MS,
    lockId: 4_202_720,
    scope: 'cluster',
  },
  /** downloads: each replica's copies of the client APKs (CLIENT_APK_MIRROR). */
  apkMirror: { name: 'apk-mirror', intervalMs: 6 * 60 * MINUTE_MS, lockId: null, scope: 'replica' },
} as const satisfies Record<string, JobDefinition>;

/** Advisory locks that belong to no periodic job. */
export const OTHER_LOCKS = {
  /** database/migrate.ts: one replica migrates, the others wait. */
  migrations: 4_202_611,
} as const;

/**
 * Advisory locks keyed by a hash of a prefix and a value (`hashtextextended(prefix || value, 0)`),
 * one key per account or row: their prefixes, unique like the ids above.
 */
export const HASHED_LOCK_PREFIXES = {
  /** social/social.repository.ts: one share claim per account at a time. */
  socialShare: 'social_share:',
} as const;
