import { ECONOMICS, PRICING, slashPercent } from '@scn/proto';

/** Monthly cost of a subscription: 10 SSL per server, linear in the server count (docs/product/constants.md#billing-and-the-economy). */
export function monthlyCostSsl(serverCount: number): number {
  return PRICING.monthlyPerServerSsl * serverCount;
}

/** Hourly billing is paid upfront in blocks of 100 hours per server (docs/product/constants.md#billing-and-the-economy). */
export function hourlyBlockCostSsl(serverCount: number): number {
  return PRICING.hourlyPerServerSsl * PRICING.hourlyBlockHours * serverCount;
}

/** Changing billing type costs 10 SSL per server upfront, no refund (docs/product/constants.md#billing-and-the-economy). */
export function billingChangeCostSsl(serverCount: number): number {
  return PRICING.monthlyPerServerSsl * serverCount;
}

/** docs/product/constants.md#billing-and-the-economy: node income = base reward + clients x 10 + ad bonus. */
export function nodeIncomeSsl(baseSsl: number, clients: number, adBonusSsl: number): number {
  return baseSsl + clients * PRICING.operatorRewardSsl + adBonusSsl;
}

/** docs/product/constants.md#billing-and-the-economy: final reward = base x (1 - slash / 100). */
export function rewardAfterSlash(baseSsl: number, reliabilityPercent: number): number {
  return baseSsl * (1 - slashPercent(reliabilityPercent) / 100);
}

/** docs/product/constants.md#billing-and-the-economy: monthly stake income = stake x 12% / 12. */
export function monthlyStakeIncomeSsl(stakeSsl: number): number {
  return (stakeSsl * ECONOMICS.stakingApyPercent) / 100 / 12;
}

/** docs/product/constants.md#billing-and-the-economy: the worked example month of the economics page. */
export const EXAMPLE_MONTH = {
  clients: 20,
  baseRewardSsl: 1500,
  adBonusSsl: 4,
  stakeSharePercent: 50,
} as const;

/** The reliability levels shown in the slashing table. */
export const SLASH_EXAMPLE_RELIABILITIES = [100, 99, 97, 95, 90, 75, 50] as const;
