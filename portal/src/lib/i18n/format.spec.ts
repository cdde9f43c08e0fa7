import { describe, expect, it } from '@jest/globals';
import { formatDate, formatNumber } from './format';

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
