import { describe, expect, it } from '@jest/globals';
import { formatDate, formatNumber, formatSslAmount, formatSslNumber } from './format';

describe('formatSslAmount', () => {
  it('should keep every micro-SSL digit in exact mode when the amount has a fraction', () => {
    expect(formatSslAmount('10000000', 'en')).toBe('10 SSL');
    expect(formatSslAmount('10500001', 'en')).toBe('10.500001 SSL');
    expect(formatSslAmount('-2500000', 'en')).toBe('-2.5 SSL');
  });

  it('should round half away from zero to two decimals in cents mode, as formatSsl does', () => {
    expect(formatSslNumber('10005000', 'en', 'cents')).toBe('10.01');
    expect(formatSslNumber('-10005000', 'en', 'cents')).toBe('-10.01');
    expect(formatSslNumber('0', 'en', 'cents')).toBe('0.00');
  });

  it('should not lose precision through a float when the amount is beyond 2^53 micro-SSL', () => {
    expect(formatSslNumber('90071992547409930', 'en')).toBe('90,071,992,547.40993');
  });

  it('should write Persian digits and separators and keep the Latin unit when the locale is fa', () => {
    expect(formatSslAmount('1234500000', 'fa')).toBe('۱٬۲۳۴٫۵ SSL');
  });

  it('should use the Russian separators when the locale is ru', () => {
    expect(formatSslNumber('1234500000', 'ru').replace(/\s/g, ' ')).toBe('1 234,5');
  });

  it('should keep Latin digits when the locale is zh', () => {
    expect(formatSslAmount('1234500000', 'zh')).toBe('1,234.5 SSL');
  });
});

describe('formatNumber', () => {
  it('should group digits in the locale when given a number', () => {
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatNumber(12345, 'fa')).toBe('۱۲٬۳۴۵');
  });
});

describe('formatDate', () => {
  const date = new Date('2026-03-21T12:00:00Z');

  it('should use the Solar Hijri calendar and Persian digits when the locale is fa', () => {
    // 21 March 2026 is 1 Farvardin 1405, the Persian new year.
    expect(formatDate(date, 'fa', { dateStyle: 'long', timeZone: 'UTC' })).toBe('۱ فروردین ۱۴۰۵');
  });

  it('should use the Gregorian calendar in en, ru and zh', () => {
    expect(formatDate(date, 'en', { dateStyle: 'long', timeZone: 'UTC' })).toBe('March 21, 2026');
    expect(formatDate(date, 'ru', { dateStyle: 'long', timeZone: 'UTC' })).toBe('21 марта 2026 г.');
    expect(formatDate(date, 'zh', { dateStyle: 'long', timeZone: 'UTC' })).toBe('2026年3月21日');
  });
});
