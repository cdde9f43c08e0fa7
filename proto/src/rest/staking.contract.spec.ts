import {
  autoStakeSchema,
  firstIssueMessage,
  STAKING_MESSAGES,
  stakeAmountMicro,
  stakeAmountSchema,
} from '../index';

function parse(body: unknown): string {
  const result = stakeAmountSchema.safeParse(body);
  if (!result.success) return `error: ${firstIssueMessage(result.error)}`;
  const amount = stakeAmountMicro(result.data);
  return 'micro' in amount ? amount.micro.toString() : `error: ${amount.error}`;
}

describe('stakeAmountSchema', () => {
  it('should take an amount in SSL as a number or a decimal string, up to 6 decimals', () => {
    expect(parse({ amount: 12.5 })).toBe('12500000');
    expect(parse({ amount: '12.5' })).toBe('12500000');
    expect(parse({ amount: ' 0.000001 ' })).toBe('1');
    expect(parse({ amount: 852 })).toBe('852000000');
  });

  it('should take amountMicro as a whole number of micro-SSL', () => {
    expect(parse({ amountMicro: '1' })).toBe('1');
    expect(parse({ amountMicro: '852000000' })).toBe('852000000');
  });

  it('should refuse zero, negatives, too many decimals, exponents and other text with one message each', () => {
    const invalid = `error: ${STAKING_MESSAGES.amountInvalid}`;
    for (const amount of [0, '0', '0.0000001', -1, '-1', '1e3', 1e-7, '1,5', 'abc', '1.', '.5']) {
      expect([amount, parse({ amount })]).toEqual([amount, invalid]);
    }
    expect(parse({ amount: null })).toBe(invalid);
    for (const amountMicro of ['0', '-5', '1.5', 'x', '123456789012345678901']) {
      expect(parse({ amountMicro })).toBe(`error: ${STAKING_MESSAGES.amountMicroInvalid}`);
    }
    expect(parse({ amountMicro: 5 })).toBe(`error: ${STAKING_MESSAGES.amountMicroInvalid}`);
  });

  it('should refuse a body with neither, both, or an unknown field', () => {
    expect(parse({})).toBe(`error: ${STAKING_MESSAGES.amountRequired}`);
    expect(parse({ amount: '' })).toBe(`error: ${STAKING_MESSAGES.amountRequired}`);
    expect(parse({ amount: 1, amountMicro: '1' })).toBe(`error: ${STAKING_MESSAGES.amountBoth}`);
    expect(parse({ amount: 1, extra: true })).toBe('error: Unknown field: extra');
    expect(parse([])).toBe('error: Request body must be a JSON object');
  });

  it('should refuse more than the total supply', () => {
    expect(parse({ amount: '10000000000' })).toBe('10000000000000000');
    expect(parse({ amount: '10000000000.000001' })).toBe(
      `error: ${STAKING_MESSAGES.amountTooLarge}`,
    );
    expect(parse({ amountMicro: '99999999999999999999' })).toBe(
      `error: ${STAKING_MESSAGES.amountTooLarge}`,
    );
  });
});

describe('autoStakeSchema', () => {
  it('should take a whole percent from 0 to 100 and refuse anything else', () => {
    for (const percent of [0, 1, 50, 100])
      expect(autoStakeSchema.parse({ percent })).toEqual({ percent });
    for (const percent of [-1, 101, 12.5, '50', null, undefined]) {
      const result = autoStakeSchema.safeParse({ percent });
      expect(result.success ? 'ok' : firstIssueMessage(result.error)).toBe(
        STAKING_MESSAGES.percentInvalid,
      );
    }
  });
});

describe('STAKING_MESSAGES.stakeLocked', () => {
  it('should state the rule and the next unlock day', () => {
    expect(
      STAKING_MESSAGES.stakeLocked('5000000', '0', {
        amountMicro: '5000000',
        unlocksAt: '2026-03-12T10:00:00.000Z',
      }),
    ).toBe(
      'Only 0.00 SSL of your stake is unlocked; you asked for 5.00 SSL. Each stake is locked for 30 days. The next 5.00 SSL unlocks on 12 March 2026.',
    );
  });
});
