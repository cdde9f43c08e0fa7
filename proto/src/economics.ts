/**
 * The product's business constants (docs/product/constants.md#market-prices-and-limits, docs/product/constants.md#billing-and-the-economy), in one place for the server,
 * the agent and the portal. Money is integer micro-SSL: 1 SSL = 1_000_000 micro-SSL.
 */
export const MICRO_PER_SSL = 1_000_000n;
/** docs/product/overview.md#what-scn-is: 1 SSL = $0.035. Kept as a fraction to stay exact. */
export const SSL_USD_PRICE = { numerator: 35, denominator: 1000 } as const;
export const SSL_USD_PRICE_TEXT = '$0.035';
/** docs/product/constants.md#market-prices-and-limits: default conversion when no live rate is known. */
export const DEFAULT_SSL_PER_SOL = 5143;
/** docs/product/constants.md#billing-and-the-economy: total credits in the network. */
export const TOTAL_SSL_SUPPLY = 10_000_000_000;

export const PRICING = {
  /** docs/product/constants.md#market-prices-and-limits: 10 SSL per server per month; premium servers 10 SSL each. */
  monthlyPerServerSsl: 10,
  premiumPerServerSsl: 10,
  /** docs/product/constants.md#billing-and-the-economy: hourly billing is 0.1 SSL an hour, 100 hours per server, paid upfront. */
  hourlyPerServerSsl: 0.1,
  hourlyBlockHours: 100,
  monthlyValidityDays: 30,
  /** docs/product/constants.md#market-prices-and-limits: operator reward per non-admin server, frozen 60 days. */
  operatorRewardSsl: 10,
  operatorRewardFrozenDays: 60,
  /** docs/product/constants.md#billing-and-the-economy: pauses. */
  hourlyPausesPerDay: 2,
  hourlyPauseMaxHours: 8,
  monthlyFreePauseDays: 7,
  monthlyFreePauseEveryMonths: 6,
  /** docs/product/overview.md#what-scn-is: access is complimentary through this date (launch period). */
  launchPeriodEnds: '2025-12-31',
} as const;

export type VpsTierId = 'tier1' | 'tier2' | 'tier3' | 'tier4';
export interface VpsTier {
  id: VpsTierId;
  name: string;
  vcpu: number;
  ramGb: number;
  ssdGb: number;
  maxClients: number;
  /**
   * The monthly base reward at 100% reliability, before slashing and halving. Set so
   * that base + maxClients x 10 (a full node's subscription rewards) is the wizard's promise,
   * `monthlyEarningsSsl` (docs/economics.md: 25 SSL per allowed client).
   */
  baseRewardSsl: number;
  monthlyEarningsSsl: number;
  usdValue: string;
  recommended: boolean;
}

/** docs/product/constants.md#market-prices-and-limits: operator VPS tiers of the setup wizard. */
export const VPS_TIERS: readonly VpsTier[] = [
  {
    id: 'tier1',
    name: '1 Core / 1GB RAM',
    vcpu: 1,
    ramGb: 1,
    ssdGb: 25,
    maxClients: 10,
    baseRewardSsl: 250,
    monthlyEarningsSsl: 350,
    usdValue: '$12.25',
    recommended: false,
  },
  {
    id: 'tier2',
    name: '2 Cores / 2GB RAM',
    vcpu: 2,
    ramGb: 2,
    ssdGb: 50,
    maxClients: 25,
    baseRewardSsl: 625,
    monthlyEarningsSsl: 875,
    usdValue: '$30.63',
    recommended: true,
  },
  {
    id: 'tier3',
    name: '4 Cores / 4GB RAM',
    vcpu: 4,
    ramGb: 4,
    ssdGb: 80,
    maxClients: 60,
    baseRewardSsl: 1500,
    monthlyEarningsSsl: 2100,
    usdValue: '$73.50',
    recommended: false,
  },
  {
    id: 'tier4',
    name: '8 Cores / 8GB RAM',
    vcpu: 8,
    ramGb: 8,
    ssdGb: 160,
    maxClients: 140,
    baseRewardSsl: 3500,
    monthlyEarningsSsl: 4900,
    usdValue: '$171.50',
    recommended: false,
  },
];

export interface CoreRewardTier {
  cores: string;
  minCores: number;
  maxCores: number | null;
  multiplier: number;
  monthlySsl: number;
  allowedClients: number;
  minMbps: number;
}

/** docs/product/constants.md#billing-and-the-economy: reward tiers by core count. */
export const CORE_REWARD_TIERS: readonly CoreRewardTier[] = [
  {
    cores: '4-6',
    minCores: 4,
    maxCores: 6,
    multiplier: 1,
    monthlySsl: 1000,
    allowedClients: 100,
    minMbps: 100,
  },
  {
    cores: '8-12',
    minCores: 8,
    maxCores: 12,
    multiplier: 1.4,
    monthlySsl: 1400,
    allowedClients: 400,
    minMbps: 400,
  },
  {
    cores: '14-18',
    minCores: 14,
    maxCores: 18,
    multiplier: 1.8,
    monthlySsl: 1800,
    allowedClients: 800,
    minMbps: 800,
  },
  {
    cores: '20+',
    minCores: 20,
    maxCores: null,
    multiplier: 2.2,
    monthlySsl: 2200,
    allowedClients: 1200,
    minMbps: 1200,
  },
];

export const ECONOMICS = {
  operatorRewardPoolPercent: 15,
  rewardCycleMonths: 12,
  stakingApyPercent: 12,
  clientPaymentsToOperatorsPercent: 100,
  withdrawalProtocolFeePercent: 25,
  promotionBurnPercent: 10,
  /** docs/product/states.md#subscription-and-reliability-states: below this the server is hidden and its rewards frozen. */
  hideBelowReliabilityPercent: 95,
  recoveryDays: 14,
  availableAtReliability: 50,
  hardwareAgeYears: 4,
  hardwareAgeCutPercent: 50,
  /** docs/product/constants.md#billing-and-the-economy: halving protection, share of monthly earnings to stake, by year. */
  stakingShareByYear: [20, 30, 40, 50] as const,
  /** A stake can be taken back this many days after it was made. */
  stakeLockDays: 30,
  adRewardSsl: { min: 0.1, max: 1 },
} as const;

/**
 * docs/product/states.md#market-and-account-states Server disabled: the proxy core states in which clients cannot connect through a
 * server ("core down"). States as the control plane stores them: the agent's ProxyCoreState in
 * lower case without its prefix; `restarting` is not down (the agent brings it back).
 */
export const CORE_DOWN_STATES = ['stopped', 'failed', 'absent'] as const;

/** Whether a stored core state means the core is down (none reported yet: not down). */
export function isCoreDown(coreState: string | null): boolean {
  return (CORE_DOWN_STATES as readonly string[]).includes(coreState ?? '');
}

/** docs/product/constants.md#billing-and-the-economy: the operators' reward pool at genesis, 15% of the supply, in micro-SSL. */
export const REWARD_POOL_GENESIS_MICRO =
  (BigInt(TOTAL_SSL_SUPPLY) * BigInt(ECONOMICS.operatorRewardPoolPercent) * MICRO_PER_SSL) / 100n;

/** docs/product/constants.md#billing-and-the-economy: slash percent = 2 x (1 - reliability) x 100, from 0 to 100. */
export function slashPercent(reliabilityPercent: number): number {
  const reliability = Math.min(100, Math.max(0, reliabilityPercent)) / 100;
  return Math.min(100, Math.max(0, 2 * (1 - reliability) * 100));
}

/** docs/product/constants.md#market-prices-and-limits: promotion plans, capped at 4000 SSL cumulative. */
export const PROMOTION_PLANS = [
  { id: 'basic', name: 'Basic', days: 10, costSsl: 1000 },
  { id: 'standard', name: 'Standard', days: 20, costSsl: 2000 },
  { id: 'premium', name: 'Premium', days: 30, costSsl: 3000 },
] as const;
export const PROMOTION_CAP_SSL = 4000;

/** docs/product/constants.md#market-prices-and-limits: share-and-earn. */
export const SHARE_REWARD = {
  normalSsl: 0.1,
  primeTimeSsl: 1,
  cooldownDays: 7,
  pendingHours: 24,
} as const;

/** A window of the local day in minutes since midnight, [start, end): start in, end out. */
export type DayWindow = readonly [startMinute: number, endMinute: number];

/**
 * docs/product/constants.md#market-prices-and-limits: prime time, read in the sharer's own time zone, when a share earns
 * `SHARE_REWARD.primeTimeSsl` instead of `normalSsl`. Weekdays 12:00-13:30 and 20:00-21:30;
 * Saturday and Sunday (`weekendDays`, 0 is Sunday) 10:00-16:00 and 19:00-22:00. The server pays
 * by these and the Economics page states them, so both read this one table.
 */
export const SHARE_PRIME_TIME: {
  readonly weekendDays: readonly number[];
  readonly weekday: readonly DayWindow[];
  readonly weekend: readonly DayWindow[];
} = {
  weekendDays: [6, 0],
  weekday: [
    [12 * 60, 13 * 60 + 30],
    [20 * 60, 21 * 60 + 30],
  ],
  weekend: [
    [10 * 60, 16 * 60],
    [19 * 60, 22 * 60],
  ],
};

/**
 * A tier's monthly income at 100% reliability, as the wizard, the Economics page and the earnings
 * statement show it: the base reward plus the operator reward of every allowed client
 * (`PRICING.operatorRewardSsl` each, frozen `PRICING.operatorRewardFrozenDays` days), before
 * slashing, halving and the withdrawal fee. `totalSsl` is the tier's `monthlyEarningsSsl`.
 */
export interface TierMonthlyIncome {
  baseSsl: number;
  perClientSsl: number;
  maxClients: number;
  clientsSsl: number;
  totalSsl: number;
}

export function tierMonthlyIncome(tier: VpsTier): TierMonthlyIncome {
  const clientsSsl = tier.maxClients * PRICING.operatorRewardSsl;
  return {
    baseSsl: tier.baseRewardSsl,
    perClientSsl: PRICING.operatorRewardSsl,
    maxClients: tier.maxClients,
    clientsSsl,
    totalSsl: tier.baseRewardSsl + clientsSsl,
  };
}
