import { describe, expect, it } from '@jest/globals';
import { TRANSACTION_TYPES } from '@scn/proto';
import {
  cardPreviewSsl,
  groupThousands,
  signedAmount,
  sslAmount,
  transactionLabel,
  usdAmount,
} from './wallet-format';

describe('sslAmount', () => {
  it('should show 2 decimals, rounded half away from zero, with thousands grouped', () => {
    expect(sslAmount('0')).toBe('0.00');
    expect(sslAmount('25000000')).toBe('25.00');
    expect(sslAmount('10005000')).toBe('10.01');
    expect(sslAmount('10004999')).toBe('10.00');
    expect(sslAmount('-10005000')).toBe('-10.01');
    expect(sslAmount('1234567890000')).toBe('1,234,567.89');
  });

  it('should refuse an amount that is not integer micro-SSL', () => {
    expect(() => sslAmount('1.5')).toThrow(/not an amount of micro-SSL/);
  });
});

describe('usdAmount', () => {
  it('should convert at $0.035 per SSL exactly, to the cent', () => {
    expect(usdAmount('10000000')).toBe('$0.35');
    expect(usdAmount('25000000')).toBe('$0.88'); // 0.875 rounds half up
    expect(usdAmount('1000000')).toBe('$0.04'); // 0.035 rounds half up
    expect(usdAmount('142857142')).toBe('$5.00'); // 142.857142 SSL x 0.035 = 4.99999997
    expect(usdAmount('0')).toBe('$0.00');
    expect(usdAmount('-10000000')).toBe('-$0.35');
  });

  it('should stay exact far beyond what a float holds', () => {
    // 10 billion SSL (the whole supply) in micro-SSL is 10^16: $350,000,000.00.
    expect(usdAmount('10000000000000000')).toBe('$350,000,000.00');
    expect(usdAmount('10000000000000001')).toBe('$350,000,000.00');
  });
});

describe('transactionLabel', () => {
  it('should name the spec types and show any other type raw', () => {
    expect(transactionLabel('deposit')).toBe('Deposit');
    expect(transactionLabel('withdrawal')).toBe('Withdrawal');
    expect(transactionLabel('subscription')).toBe('Subscription');
    expect(transactionLabel('subscription_reward')).toBe('Subscription Reward');
    expect(transactionLabel('monthly_reward')).toBe('Monthly Reward');
    expect(transactionLabel('a_future_type')).toBe('a_future_type');
    expect(transactionLabel('toString')).toBe('toString');
  });

  it("should name issue 18's movements", () => {
    expect(transactionLabel('staking_reward')).toBe('Staking Reward');
    expect(transactionLabel('stake')).toBe('Stake');
    expect(transactionLabel('unstake')).toBe('Unstake');
    expect(transactionLabel('reward_release')).toBe('Frozen Rewards Released');
    expect(transactionLabel('withdrawal_reversal')).toBe('Withdrawal Reversal');
    // Never in a user's wallet (system accounts only), named all the same.
    expect(transactionLabel('genesis')).toBe('Reward Pool Genesis');
    expect(transactionLabel('reward_forfeit')).toBe('Frozen Rewards Forfeited');
  });

  it('should give every type of the contract a label of its own, never its raw name', () => {
    const labels = TRANSACTION_TYPES.map((type) => transactionLabel(type));
    for (const [i, type] of TRANSACTION_TYPES.entries()) {
      expect(labels[i]).not.toBe(type);
      expect(labels[i]).toMatch(/^[A-Z][A-Za-z ]+$/);
    }
    expect(new Set(labels).size).toBe(TRANSACTION_TYPES.length);
  });
});

describe('signedAmount', () => {
  it('should mark positive amounts green with + and negative ones red', () => {
    expect(signedAmount('10000000')).toEqual({ text: '+10.00', tone: 'positive' });
    expect(signedAmount('-20000000')).toEqual({ text: '-20.00', tone: 'negative' });
    expect(signedAmount('0')).toEqual({ text: '0.00', tone: 'zero' });
  });
});

describe('cardPreviewSsl', () => {
  it('should be floor(usd / 0.035) SSL, computed in whole cents', () => {
    expect(cardPreviewSsl('0.35')).toBe(10n);
    expect(cardPreviewSsl('1')).toBe(28n);
    expect(cardPreviewSsl('0.03')).toBe(0n);
    expect(cardPreviewSsl('0.07')).toBe(2n);
    expect(cardPreviewSsl('100.5')).toBe(2871n);
  });

  it('should refuse what is not a USD amount with at most 2 decimals', () => {
    expect(cardPreviewSsl('')).toBeNull();
    expect(cardPreviewSsl('-1')).toBeNull();
    expect(cardPreviewSsl('1.005')).toBeNull();
    expect(cardPreviewSsl('1e3')).toBeNull();
  });
});

describe('groupThousands', () => {
  it('should group the whole part only', () => {
    expect(groupThousands('1000')).toBe('1,000');
    expect(groupThousands('-1234567.891')).toBe('-1,234,567.891');
    expect(groupThousands('999.99')).toBe('999.99');
  });
});
