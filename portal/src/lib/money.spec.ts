import { describe, expect, it } from '@jest/globals';
import { formatMicroSsl, microSslToNumber, roundToMicroSsl } from './money';

const cents = { decimals: 'cents', unit: false } as const;

describe('formatMicroSsl', () => {
  it('should keep every micro-SSL digit and no trailing zero when decimals are exact', () => {
    expect(formatMicroSsl('10000000', 'en')).toBe('10 SSL');
    expect(formatMicroSsl('10500001', 'en')).toBe('10.500001 SSL');
    expect(formatMicroSsl('-2500000', 'en')).toBe('-2.5 SSL');
  });

  it('should show zero as zero when the amount is 0', () => {
    expect(formatMicroSsl('0', 'en')).toBe('0 SSL');
    expect(formatMicroSsl(0n, 'en', cents)).toBe('0.00');
  });

  it('should show one micro-SSL exactly and as nothing in cents when the amount is 1', () => {
    expect(formatMicroSsl('1', 'en')).toBe('0.000001 SSL');
    expect(formatMicroSsl('1', 'en', cents)).toBe('0.00');
  });

  it('should cut toward zero, never round up, when the amount is 999,999 micro-SSL', () => {
    expect(formatMicroSsl('999999', 'en')).toBe('0.999999 SSL');
    expect(formatMicroSsl('999999', 'en', cents)).toBe('0.99');
    expect(formatMicroSsl('10009999', 'en', { decimals: 'cents' })).toBe('10.00 SSL');
  });

  it('should cut toward zero and keep the sign when the amount is negative', () => {
    expect(formatMicroSsl('-999999', 'en', cents)).toBe('-0.99');
    expect(formatMicroSsl('-10005000', 'en', cents)).toBe('-10.00');
    // A debt smaller than a cent shows as no debt rather than as "-0.00".
    expect(formatMicroSsl('-1', 'en', cents)).toBe('0.00');
    expect(formatMicroSsl(-1n, 'en')).toBe('-0.000001 SSL');
  });

  it('should not lose precision through a float when the amount is beyond 2^53 micro-SSL', () => {
    expect(formatMicroSsl('90071992547409930', 'en', { unit: false })).toBe('90,071,992,547.40993');
    expect(formatMicroSsl('99999999999999999999', 'en', cents)).toBe('99,999,999,999,999.99');
  });

  it('should write Persian digits and separators and keep the Latin unit when the locale is fa', () => {
    expect(formatMicroSsl('1234500000', 'fa')).toBe('۱٬۲۳۴٫۵ SSL');
    expect(formatMicroSsl('1234567890', 'fa', cents)).toBe('۱٬۲۳۴٫۵۶');
  });

  it('should use the Russian separators when the locale is ru', () => {
    expect(formatMicroSsl('1234500000', 'ru', { unit: false }).replace(/\s/g, ' ')).toBe('1 234,5');
  });

  it('should keep Latin digits when the locale is zh', () => {
    expect(formatMicroSsl('1234500000', 'zh')).toBe('1,234.5 SSL');
  });

  it('should refuse text that is not an integer amount of micro-SSL', () => {
    expect(() => formatMicroSsl('1.5', 'en')).toThrow('not an amount of micro-SSL');
  });
});

describe('microSslToNumber', () => {
  it('should convert from the exact decimal when the amount has a fraction', () => {
    expect(microSslToNumber('0')).toBe(0);
    expect(microSslToNumber('1')).toBe(0.000001);
    expect(microSslToNumber('999999')).toBe(0.999999);
    expect(microSslToNumber('-2500000')).toBe(-2.5);
    expect(microSslToNumber(4_510_000_000n)).toBe(4510);
  });
});

describe('roundToMicroSsl', () => {
  it('should drop float noise below one micro-SSL when a figure is computed', () => {
    expect(roundToMicroSsl(0.1 + 0.2)).toBe(0.3);
    expect(roundToMicroSsl(100 * 0.035)).toBe(3.5);
    expect(roundToMicroSsl(0.0000004)).toBe(0);
  });
});
