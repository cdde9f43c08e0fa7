import { describe, expect, it } from '@jest/globals';
import { inputRows, inputValue, isKnownInput, statementStatus, wordsOf } from './earnings-format';

describe('inputValue', () => {
  it.each([
    ['tierBaseMicro', '625000000', { kind: 'amount', micro: '625000000' }],
    ['reliabilityBasisPoints', 9812, { kind: 'percent', value: 98.12 }],
    ['autoStakePercent', 50, { kind: 'percent', value: 50 }],
    ['periodSeconds', 2_678_400, { kind: 'days', value: 31 }],
    ['observedSeconds', 1_296_000, { kind: 'days', value: 15 }],
    ['belowSeconds', 9_000, { kind: 'hours', value: 2.5 }],
    ['belowSeconds', 0, { kind: 'hours', value: 0 }],
    ['belowSeconds', 600, { kind: 'minutes', value: 10 }],
    ['reliabilitySeconds', '263865600', { kind: 'count', value: 263_865_600 }],
    ['enrolledAt', '2026-03-04T05:06:07.000Z', { kind: 'date', iso: '2026-03-04T05:06:07.000Z' }],
    ['halvingCut', true, { kind: 'flag', value: true }],
    ['withheld', null, { kind: 'none' }],
    ['withheld', 'hidden', { kind: 'text', value: 'hidden' }],
    ['clients', 1200, { kind: 'count', value: 1200 }],
  ])('should read %s = %j as %j', (name, value, expected) => {
    expect(inputValue(name, value)).toEqual(expected);
  });
});

describe('input names', () => {
  it('should know the inputs the catalogue names, and make words of the others', () => {
    expect(isKnownInput('observedSeconds')).toBe(true);
    expect(isKnownInput('someNewInput')).toBe(false);
    expect(wordsOf('someNewInput')).toBe('Some new input');
  });
});

describe('inputRows', () => {
  const budget = (numerator: string, denominator: string) => ({
    inputs: {
      poolWalletMicro: '600000000',
      scaleNumeratorMicro: numerator,
      scaleDenominatorMicro: denominator,
      withheld: null,
    },
  });

  it('should keep the order of the inputs and read the scale as one factor', () => {
    expect(inputRows(budget('1', '1'))).toEqual([
      { name: 'poolWalletMicro', value: { kind: 'amount', micro: '600000000' } },
      { name: 'scale', value: { kind: 'scale', hundredths: null } },
      { name: 'withheld', value: { kind: 'none' } },
    ]);
  });

  it('should give a scaled month its factor, floored to a hundredth of a percent', () => {
    // docs/economics.md: a 42.857142 SSL budget for 4,510 SSL of demand.
    expect(inputRows(budget('42857142', '4510000000'))[1]!.value).toEqual({
      kind: 'scale',
      hundredths: 95n,
    });
  });

  it('should give nothing for a line without inputs', () => {
    expect(inputRows({ inputs: {} })).toEqual([]);
  });
});

describe('statementStatus', () => {
  it('should say where each statement stands', () => {
    expect(statementStatus({ status: 'dry_run', paidAt: null })).toBe('dryRun');
    expect(statementStatus({ status: 'paid', paidAt: '2026-04-01T01:05:00.000Z' })).toBe('paidOn');
    expect(statementStatus({ status: 'paid', paidAt: null })).toBe('paid');
    expect(statementStatus({ status: 'withheld', paidAt: null })).toBe('withheld');
  });
});
