import { describe, expect, it } from '@jest/globals';
import {
  exactSsl,
  inputLabel,
  inputRows,
  inputValue,
  serverStateBadge,
  sslAmount,
  statementStatus,
} from './earnings-format';

describe('amounts', () => {
  it('should show 2 decimals grouped, and every micro-SSL for the exact figure', () => {
    expect(sslAmount('1704000000')).toBe('1,704.00');
    expect(sslAmount('604166')).toBe('0.60');
    expect(exactSsl('1234567891')).toBe('1,234.567891 SSL');
    expect(exactSsl('5')).toBe('0.000005 SSL');
    expect(exactSsl('-2500000')).toBe('-2.500000 SSL');
  });
});

describe('inputValue', () => {
  it.each([
    ['tierBaseMicro', '625000000', '625.00 SSL'],
    ['reliabilityBasisPoints', 9812, '98.12%'],
    ['slashBasisPoints', 376, '3.76%'],
    ['autoStakePercent', 50, '50%'],
    ['periodSeconds', 2_678_400, '31.0 days'],
    ['observedSeconds', 1_296_000, '15.0 days'],
    ['belowSeconds', 9_000, '2.5 hours'],
    ['belowSeconds', 0, '0.0 hours'],
    ['belowSeconds', 600, '10 minutes'],
    ['reliabilitySeconds', '263865600', '263,865,600'],
    ['enrolledAt', '2026-03-04T05:06:07.000Z', '2026-03-04'],
    ['hardwareSince', '2026-03-04T05:06:07.000Z', '2026-03-04'],
    ['halvingCut', false, 'No'],
    ['halvingCut', true, 'Yes'],
    ['withheld', null, 'None'],
    ['withheld', 'hidden', 'hidden'],
    ['nodeYear', 2, '2'],
    ['clients', 1200, '1,200'],
    ['tier', 'tier2', 'tier2'],
  ])('should write %s = %j as %s', (name, value, expected) => {
    expect(inputValue(name, value)).toBe(expected);
  });
});

describe('inputLabel', () => {
  it('should name the inputs it knows, and make words of the others', () => {
    expect(inputLabel('observedSeconds')).toBe('Enrolled in the month');
    expect(inputLabel('requiredBeforeMicro')).toBe('Asked by earlier months');
    expect(inputLabel('someNewInput')).toBe('Some new input');
  });
});

describe('inputRows', () => {
  const budget = (numerator: string, denominator: string) => ({
    inputs: {
      poolWalletMicro: '600000000',
      poolEscrowMicro: '0',
      scaleNumeratorMicro: numerator,
      scaleDenominatorMicro: denominator,
      withheld: null,
    },
  });

  it('should keep the order of the inputs and read the scale as one factor', () => {
    expect(inputRows(budget('1', '1'))).toEqual([
      { name: 'poolWalletMicro', label: 'Owed to the wallet', value: '600.00 SSL' },
      { name: 'poolEscrowMicro', label: 'Owed to the escrow', value: '0.00 SSL' },
      { name: 'scale', label: 'Budget scale', value: 'None: paid in full' },
      { name: 'withheld', label: 'Withheld', value: 'None' },
    ]);
  });

  it('should give a scaled month its factor, floored to a hundredth of a percent', () => {
    // spec example of docs/economics.md: a 42.857142 SSL budget for 4,510 SSL of demand.
    const scale = inputRows(budget('42857142', '4510000000')).find((row) => row.name === 'scale');
    expect(scale?.value).toBe('0.95% (budget / demand)');
    expect(inputRows(budget('0', '1')).find((row) => row.name === 'scale')?.value).toBe(
      '0.00% (budget / demand)',
    );
  });

  it('should give nothing for a line without inputs', () => {
    expect(inputRows({ inputs: {} })).toEqual([]);
  });
});

describe('statementStatus and serverStateBadge', () => {
  it('should say where each statement stands', () => {
    expect(statementStatus({ status: 'dry_run', paidAt: null })).toBe('So far, not final');
    expect(statementStatus({ status: 'computed', paidAt: null })).toBe('Computed, payment pending');
    expect(statementStatus({ status: 'paid', paidAt: '2026-04-01T01:05:00.000Z' })).toBe(
      'Paid on 2026-04-01',
    );
    expect(statementStatus({ status: 'withheld', paidAt: null })).toBe('Withheld: not paid');
  });

  it('should badge only a server that is not active', () => {
    expect(serverStateBadge('active')).toBeNull();
    expect(serverStateBadge('hidden')).toBe('Hidden (below 95%)');
    expect(serverStateBadge('banned')).toBe('Banned');
  });
});
