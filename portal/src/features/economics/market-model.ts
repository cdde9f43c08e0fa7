import { CORE_REWARD_TIERS } from '@scn/proto';

export interface RestrictedCountry {
  country: string;
  region: MarketRegion;
  /** Rounded estimate of people who need circumvention tools; not a measured figure. */
  estimatedUsers: number;
}

export type MarketRegion =
  | 'East Asia'
  | 'Middle East & North Africa'
  | 'Eastern Europe & Central Asia'
  | 'South & Southeast Asia'
  | 'Sub-Saharan Africa'
  | 'Latin America & Caribbean';

/**
 * docs/product/screens.md#dashboards-and-information-pages/docs/product/constants.md#billing-and-the-economy: 18 restricted countries, about 273 million users in total.
 * The per-country split is our rounded estimate, made to add up to the stated total.
 */
export const RESTRICTED_COUNTRIES: readonly RestrictedCountry[] = [
  { country: 'China', region: 'East Asia', estimatedUsers: 150_000_000 },
  { country: 'Iran', region: 'Middle East & North Africa', estimatedUsers: 33_000_000 },
  { country: 'Russia', region: 'Eastern Europe & Central Asia', estimatedUsers: 30_000_000 },
  { country: 'Pakistan', region: 'South & Southeast Asia', estimatedUsers: 10_000_000 },
  { country: 'Turkey', region: 'Middle East & North Africa', estimatedUsers: 10_000_000 },
  { country: 'Vietnam', region: 'South & Southeast Asia', estimatedUsers: 7_000_000 },
  { country: 'Egypt', region: 'Middle East & North Africa', estimatedUsers: 6_000_000 },
  { country: 'Saudi Arabia', region: 'Middle East & North Africa', estimatedUsers: 5_500_000 },
  { country: 'Myanmar', region: 'South & Southeast Asia', estimatedUsers: 4_000_000 },
  {
    country: 'United Arab Emirates',
    region: 'Middle East & North Africa',
    estimatedUsers: 3_000_000,
  },
  { country: 'Uzbekistan', region: 'Eastern Europe & Central Asia', estimatedUsers: 3_000_000 },
  { country: 'Venezuela', region: 'Latin America & Caribbean', estimatedUsers: 2_500_000 },
  { country: 'Belarus', region: 'Eastern Europe & Central Asia', estimatedUsers: 2_000_000 },
  { country: 'Kazakhstan', region: 'Eastern Europe & Central Asia', estimatedUsers: 2_000_000 },
  { country: 'Ethiopia', region: 'Sub-Saharan Africa', estimatedUsers: 1_500_000 },
  { country: 'Cuba', region: 'Latin America & Caribbean', estimatedUsers: 1_500_000 },
  { country: 'Turkmenistan', region: 'Eastern Europe & Central Asia', estimatedUsers: 1_000_000 },
  { country: 'Tajikistan', region: 'Eastern Europe & Central Asia', estimatedUsers: 1_000_000 },
];

export const TOTAL_RESTRICTED_USERS = RESTRICTED_COUNTRIES.reduce(
  (sum, entry) => sum + entry.estimatedUsers,
  0,
);

/** docs/product/constants.md#billing-and-the-economy: the network targets 1% of users in restricted countries. */
export const TARGET_SHARE_PERCENT = 1;
export const TARGET_USERS = Math.round((TOTAL_RESTRICTED_USERS * TARGET_SHARE_PERCENT) / 100);

/** docs/product/constants.md#billing-and-the-economy: redundancy margin on top of the servers strictly needed. */
export const REDUNDANCY_PERCENT = { min: 30, max: 50 } as const;

/** docs/product/constants.md#billing-and-the-economy: share of target users served by each core tier (100/400/800/1,200 users). */
const TIER_USER_SHARE_PERCENT = [40, 30, 20, 10] as const;
const TIER_LABELS = [
  'Laptop',
  'Desktop / workstation',
  'Small server',
  'Dedicated server',
] as const;

export interface TierPlan {
  label: string;
  cores: string;
  usersPerServer: number;
  userSharePercent: number;
  users: number;
  servers: number;
}

export const TIER_PLAN: readonly TierPlan[] = CORE_REWARD_TIERS.map((tier, index) => {
  const userSharePercent = TIER_USER_SHARE_PERCENT[index] ?? 0;
  const users = Math.round((TARGET_USERS * userSharePercent) / 100);
  return {
    label: TIER_LABELS[index] ?? tier.cores,
    cores: tier.cores,
    usersPerServer: tier.allowedClients,
    userSharePercent,
    users,
    servers: Math.ceil(users / tier.allowedClients),
  };
});

export const BASE_SERVERS = TIER_PLAN.reduce((sum, tier) => sum + tier.servers, 0);
export const SERVERS_WITH_REDUNDANCY = {
  min: Math.round(BASE_SERVERS * (1 + REDUNDANCY_PERCENT.min / 100)),
  max: Math.round(BASE_SERVERS * (1 + REDUNDANCY_PERCENT.max / 100)),
} as const;
