import { describe, expect, it } from '@jest/globals';
import { STAKING_MESSAGES, type StakingServer } from '@scn/proto';
import { halvingStatus, parseAmount, parsePercent, requirementMet } from './staking-format';

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

describe('halvingStatus', () => {
  const now = new Date('2026-03-01T00:00:00.000Z');

  it('should name the date halving would apply from while it is ahead', () => {
    expect(halvingStatus(server(), now)).toEqual({
      kind: 'ahead',
      tone: 'ok',
      from: '2029-01-10T00:00:00.000Z',
    });
  });

  it('should warn once the date has passed, and show the cut with the halved clients', () => {
    expect(halvingStatus(server({ halvingFrom: '2026-02-01T00:00:00.000Z' }), now)).toEqual({
      kind: 'protected',
      tone: 'warn',
    });
    expect(halvingStatus(server({ halvingCut: true, allowedClients: 12 }), now)).toEqual({
      kind: 'halved',
      tone: 'cut',
      allowedClients: 12,
      maxClients: 25,
    });
  });
});

describe('requirementMet', () => {
  it('should say whether the stake covers the requirement', () => {
    expect(requirementMet('852000000', '852000000')).toBe(true);
    expect(requirementMet('852000000', '851999999')).toBe(false);
  });
});
