import { describe, expect, it } from '@jest/globals';
import {
  COUNTDOWN_FALLBACK,
  countdownText,
  formatDuration,
  pausedCountdownText,
} from './countdown';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('countdownText', () => {
  it('should show the hours and minutes left until expirationDate', () => {
    expect(countdownText('2025-06-05T16:00:00Z', NOW)).toBe('100:00');
    expect(countdownText('2025-06-05T15:59:30Z', NOW)).toBe('99:59');
    expect(countdownText('2025-06-01T13:30:59Z', NOW)).toBe('01:30');
    expect(countdownText('2025-06-01T12:00:59Z', NOW)).toBe('00:00');
  });

  it('should never count below zero', () => {
    expect(countdownText('2025-05-31T12:00:00Z', NOW)).toBe('00:00');
  });

  it('should fall back to 100:00 without a usable date', () => {
    expect(countdownText(null, NOW)).toBe(COUNTDOWN_FALLBACK);
    expect(countdownText(undefined, NOW)).toBe('100:00');
    expect(countdownText('not a date', NOW)).toBe('100:00');
  });

  it('should move by a minute when the 60 s refresh comes', () => {
    const end = '2025-06-01T14:00:00Z';
    expect(countdownText(end, NOW)).toBe('02:00');
    expect(countdownText(end, NOW + 60_000)).toBe('01:59');
  });
});

describe('pausedCountdownText', () => {
  it("should show the paused subscription's remaining time as it stands", () => {
    expect(pausedCountdownText(360_000)).toBe('100:00');
    expect(pausedCountdownText(3_599)).toBe('00:59');
    expect(pausedCountdownText(null)).toBe('100:00');
    expect(pausedCountdownText(Number.NaN)).toBe('100:00');
  });
});

describe('formatDuration', () => {
  it('should pad to hh:mm and keep three-digit hours', () => {
    expect(formatDuration(5 * 60_000)).toBe('00:05');
    expect(formatDuration(250 * 3_600_000)).toBe('250:00');
    expect(formatDuration(-1)).toBe('00:00');
  });
});
