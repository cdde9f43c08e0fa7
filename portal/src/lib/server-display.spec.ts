import { describe, expect, it } from '@jest/globals';
import { formatUptime, pingTone, reliabilityTone } from './server-display';

describe('formatUptime', () => {
  it("should show 'New' when the uptime is 0 hours", () => {
    expect(formatUptime(0)).toBe('New');
    expect(formatUptime(0.9)).toBe('New');
  });

  it("should show 'Xd Yh' otherwise", () => {
    expect(formatUptime(1)).toBe('0d 1h');
    expect(formatUptime(24)).toBe('1d 0h');
    expect(formatUptime(26)).toBe('1d 2h');
    expect(formatUptime(24 * 45 + 23.7)).toBe('45d 23h');
  });

  it("should show 'New' when the value is negative or not a number", () => {
    expect(formatUptime(-5)).toBe('New');
    expect(formatUptime(Number.NaN)).toBe('New');
  });
});

describe('reliabilityTone and pingTone', () => {
  it('should colour reliability green at 90 or more, yellow at 70 or more, else red', () => {
    expect(reliabilityTone(100)).toBe('success');
    expect(reliabilityTone(90)).toBe('success');
    expect(reliabilityTone(89.9)).toBe('warning');
    expect(reliabilityTone(70)).toBe('warning');
    expect(reliabilityTone(69)).toBe('danger');
    expect(reliabilityTone(0)).toBe('danger');
  });

  it('should colour ping green under 50, yellow under 100, else red', () => {
    expect(pingTone(0)).toBe('success');
    expect(pingTone(49)).toBe('success');
    expect(pingTone(50)).toBe('warning');
    expect(pingTone(99)).toBe('warning');
    expect(pingTone(100)).toBe('danger');
    expect(pingTone(450)).toBe('danger');
  });
});
