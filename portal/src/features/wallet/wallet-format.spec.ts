import { describe, expect, it } from '@jest/globals';
import { TRANSACTION_TYPES } from '@scn/proto';
import en from '../../locales/wallet/en.json';
import {
  formatDateTime,
  parseDuration,
  percent,
  signedAmount,
  solAmount,
  solDecimal,
  sslUsdPrice,
  transactionLabelKey,
  usdAmount,
} from './wallet-format';

describe('usdAmount', () => {
  it('should convert at $0.035 per SSL exactly, to the cent', () => {
    expect(usdAmount('10000000', 'en')).toBe('0.35');
    expect(usdAmount('25000000', 'en')).toBe('0.88'); // 0.875 rounds half up
    expect(usdAmount('1000000', 'en')).toBe('0.04'); // 0.035 rounds half up
    expect(usdAmount('142857142', 'en')).toBe('5.00'); // 142.857142 SSL x 0.035 = 4.99999997
    expect(usdAmount('0', 'en')).toBe('0.00');
    expect(usdAmount('-10000000', 'en')).toBe('-0.35');
    expect(usdAmount('10000000', 'fa')).toBe('۰٫۳۵');
  });

  it('should stay exact far beyond what a float holds', () => {
    // 10 billion SSL (the whole supply) in micro-SSL is 10^16: $350,000,000.00.
    expect(usdAmount('10000000000000000', 'en')).toBe('350,000,000.00');
    expect(usdAmount('10000000000000001', 'en')).toBe('350,000,000.00');
  });

  it('should give the price of one SSL', () => {
    expect(sslUsdPrice('en')).toBe('0.035');
    expect(sslUsdPrice('fa')).toBe('۰٫۰۳۵');
  });
});

describe('SOL amounts and percentages', () => {
  it('should keep every lamport and no trailing zero', () => {
    expect(solAmount(14_582_928n, 'en')).toBe('0.014582928');
    expect(solAmount('1500000000', 'en')).toBe('1.5');
    expect(solAmount('1234000000000', 'ru')).toMatch(/^1\s234$/);
    expect(solDecimal('0.1', 'fa')).toBe('۰٫۱');
    expect(solDecimal('not a number', 'fa')).toBe('not a number');
  });

  it('should write the fee in the reader’s percent', () => {
    expect(percent(25, 'en')).toBe('25%');
    expect(percent(25, 'fa')).toBe('۲۵٪');
  });
});

describe('transactionLabelKey', () => {
  it('should name every type of the contract, with a label in the catalogue', () => {
    for (const type of TRANSACTION_TYPES) {
      expect(transactionLabelKey(type)).toBe(type);
      expect(en.transactions.type[type]).toMatch(/^[A-Z][A-Za-z ]+$/);
    }
    expect(new Set(Object.values(en.transactions.type)).size).toBe(TRANSACTION_TYPES.length);
  });

  it('should know no other type (it is shown raw)', () => {
    expect(transactionLabelKey('a_future_type')).toBeNull();
    expect(transactionLabelKey('toString')).toBeNull();
  });
});

describe('signedAmount', () => {
  it('should mark positive amounts green with + and negative ones red', () => {
    expect(signedAmount('10000000', 'en')).toEqual({ text: '+10.00', tone: 'positive' });
    expect(signedAmount('-20000000', 'en')).toEqual({ text: '-20.00', tone: 'negative' });
    expect(signedAmount('0', 'en')).toEqual({ text: '0.00', tone: 'zero' });
    expect(signedAmount('10000000', 'fa').text).toBe('+۱۰٫۰۰');
  });
});

describe('parseDuration', () => {
  it("should read the server's durations", () => {
    expect(parseDuration('1month')).toEqual({ count: 1, unit: 'month' });
    expect(parseDuration('100hours')).toEqual({ count: 100, unit: 'hours' });
    expect(parseDuration('7days')).toEqual({ count: 7, unit: 'days' });
    expect(parseDuration('forever')).toBeNull();
  });
});

describe('formatDateTime', () => {
  it('should use the Solar Hijri calendar and Persian digits in fa', () => {
    const text = formatDateTime('2026-03-21T12:00:00Z', 'fa');
    expect(text).toMatch(/۱۴۰۵/);
    expect(text).not.toMatch(/[0-9]/);
    expect(formatDateTime('garbage', 'en')).toBe('garbage');
  });
});
