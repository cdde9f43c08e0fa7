import { describe, expect, it } from '@jest/globals';
import { STAKING_MESSAGES, type StakingServer } from '@scn/proto';
import {
  formatDay,
  formatUnlock,
  halvingStatus,
  parseAmount,
  parsePercent,
  requirementText,
  sslAmount,
} from './staking-format';

const server = (overrides: Partial<StakingServer> = {}): StakingServer => ({
  id: 's1',
  name: 'Node',
  tier: 'tier2',
  nodeYear: 2,
  requiredSharePercent: 30,
  requiredStakeMicro: '0',
  enrolledAt: '2025-01-10T00:00:00.000Z',
  hardwareSince: '2025-01-10T00:00:00.000Z',
  halvingFrom: '2029-01-10T00:00:00.000Z',
  halvingCut: false,
  maxClients: 25,
  allowedClients: 25,
  ...overrides,
});

describe('sslAmount', () => {
  it('should show 2 decimals with thousands grouped', () => {
    expect(sslAmount('1234567500000')).toBe('1,234,567.50');
    expect(sslAmount('8520000')).toBe('8.52');
    expect(sslAmount(0n)).toBe('0.00');
  });
});

describe('parseAmount', () => {
  it('should turn typed SSL into micro-SSL for the call', () => {
    expect(parseAmount('12.5')).toEqual({ amountMicro: '12500000' });
    expect(parseAmount(' 0.000001 ')).toEqual({ amountMicro: '1' });
  });

  it('should give the contract’s message for what cannot be an amount', () => {
    expect(parseAmount('')).toEqual({ error: STAKING_MESSAGES.amountRequired });
    for (const text of ['0', '-1', 'abc', '1.0000001', '1,5']) {
      expect(parseAmount(text)).toEqual({ error: STAKING_MESSAGES.amountInvalid });
    }
  });
});

describe('parsePercent', () => {
  it('should take a whole number from 0 to 100 only', () => {
    expect(parsePercent('0')).toEqual({ percent: 0 });
    expect(parsePercent(' 50 ')).toEqual({ percent: 50 });
    expect(parsePercent('100')).toEqual({ percent: 100 });
    for (const text of ['101', '-1', '2.5', '', 'x', '1000']) {
      expect(parsePercent(text)).toEqual({ error: STAKING_MESSAGES.percentInvalid });
    }
  });
});

describe('dates', () => {
  it('should show days and unlock instants in UTC', () => {
    expect(formatDay('2026-03-31T23:30:00.000Z')).toBe('Mar 31, 2026');
    expect(formatUnlock('2026-03-31T12:00:00.000Z')).toBe('Mar 31, 2026, 12:00 PM UTC');
    expect(formatDay('not a date')).toBe('not a date');
  });
});

describe('halvingStatus', () => {
  const now = new Date('2026-03-01T00:00:00.000Z');

  it('should name the date halving would apply from while it is ahead', () => {
    expect(halvingStatus(server(), now)).toEqual({
      text: 'Halving applies from Jan 10, 2029 unless staked',
      tone: 'ok',
    });
  });

  it('should warn once the date has passed, and show the cut with the halved clients', () => {
    expect(halvingStatus(server({ halvingFrom: '2026-02-01T00:00:00.000Z' }), now).tone).toBe(
      'warn',
    );
    expect(halvingStatus(server({ halvingCut: true, allowedClients: 12 }), now)).toEqual({
      text: 'Halved: 12 of 25 clients allowed',
      tone: 'cut',
    });
    expect(
      halvingStatus(server({ halvingCut: true, maxClients: null, allowedClients: null }), now),
    ).toEqual({
      text: 'Halved',
      tone: 'cut',
    });
  });
});

describe('requirementText', () => {
  it('should say whether the stake covers the requirement', () => {
    expect(requirementText('852000000', '852000000')).toBe('Required so far: 852.00 SSL (met)');
    expect(requirementText('852000000', '851999999')).toBe('Required so far: 852.00 SSL (not met)');
  });
});
