import { PRICING, SSL_USD_PRICE, VPS_TIERS } from './economics';

describe('VPS tiers (issue 18 §2 rule 1)', () => {
  it('should pay each tier its wizard promise at 100% reliability and full capacity, without ads', () => {
    for (const tier of VPS_TIERS) {
      expect(tier.baseRewardSsl + tier.maxClients * PRICING.operatorRewardSsl).toBe(
        tier.monthlyEarningsSsl,
      );
      const usd = (tier.monthlyEarningsSsl * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator;
      expect(tier.usdValue).toBe(`$${usd.toFixed(2)}`);
    }
  });

  it('should give tier 3 the worked example’s base of 1,500 SSL (issue 18 §2 rule 2)', () => {
    expect(VPS_TIERS.find((tier) => tier.id === 'tier3')?.baseRewardSsl).toBe(1500);
  });
});
