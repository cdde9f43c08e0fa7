import { ProxyCoreState } from './gen/scn/agent/v1/ProxyCoreState';
import {
  CORE_DOWN_STATES,
  isCoreDown,
  PRICING,
  SSL_USD_PRICE,
  VPS_TIERS,
  tierMonthlyIncome,
} from './economics';

describe('VPS tiers (economics.md, rule 1)', () => {
  it('should pay each tier its wizard promise at 100% reliability and full capacity, without ads', () => {
    for (const tier of VPS_TIERS) {
      expect(tier.baseRewardSsl + tier.maxClients * PRICING.operatorRewardSsl).toBe(
        tier.monthlyEarningsSsl,
      );
      const usd = (tier.monthlyEarningsSsl * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator;
      expect(tier.usdValue).toBe(`$${usd.toFixed(2)}`);
    }
  });

  it('should give tier 3 the worked example’s base of 1,500 SSL (economics.md, rule 2)', () => {
    expect(VPS_TIERS.find((tier) => tier.id === 'tier3')?.baseRewardSsl).toBe(1500);
  });
});

describe('tierMonthlyIncome', () => {
  it("should split each tier's promise into its base and its clients' rewards", () => {
    const tier1 = VPS_TIERS.find((tier) => tier.id === 'tier1');
    if (!tier1) throw new Error('tier1 missing');
    expect(tierMonthlyIncome(tier1)).toEqual({
      baseSsl: 250,
      perClientSsl: 10,
      maxClients: 10,
      clientsSsl: 100,
      totalSsl: 350,
    });
    for (const tier of VPS_TIERS) {
      expect(tierMonthlyIncome(tier).totalSsl).toBe(tier.monthlyEarningsSsl);
    }
  });
});

describe('CORE_DOWN_STATES', () => {
  it('should name only states of the agent contract, as the control plane stores them', () => {
    const stored = Object.keys(ProxyCoreState).map((state) =>
      state.replace('PROXY_CORE_STATE_', '').toLowerCase(),
    );
    for (const state of CORE_DOWN_STATES) expect(stored).toContain(state);
    expect(isCoreDown('running')).toBe(false);
    expect(isCoreDown('restarting')).toBe(false);
    expect(isCoreDown(null)).toBe(false);
    expect(isCoreDown('failed')).toBe(true);
  });
});
