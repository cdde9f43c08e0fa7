import { describe, expect, it } from '@jest/globals';
import { solAmount } from './wallet-format';
import { anyInFlight, withdrawFormProblem, withdrawPreview } from './withdraw-rules';

const ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const limits = {
  availableMicro: '500000000',
  leftTodayMicro: '300000000',
  settings: {
    enabled: true,
    minimumMicro: '10000000',
    dailyCapMicro: '1000000000',
    feePercent: 25,
    sslPerSol: 5143,
    cluster: 'localnet' as const,
  },
};

describe('withdrawPreview', () => {
  it("should show the fee, the net and the SOL at the server's rate", () => {
    expect(withdrawPreview('100', 5143)).toMatchObject({
      feeMicro: 25_000_000n,
      netMicro: 75_000_000n,
      lamports: 14_582_928n,
    });
    expect(solAmount(14_582_928n, 'en')).toBe('0.014582928');
    expect(solAmount(14_582_928n, 'fa')).toBe('۰٫۰۱۴۵۸۲۹۲۸');
  });

  it('should show nothing for what does not parse, or without a rate', () => {
    expect(withdrawPreview('', 5143)).toBeNull();
    expect(withdrawPreview('0', 5143)).toBeNull();
    expect(withdrawPreview('1.5.2', 5143)).toBeNull();
    expect(withdrawPreview('+100', 5143)).toBeNull();
    expect(withdrawPreview('10', null)).toBeNull();
  });
});

describe('withdrawFormProblem', () => {
  const form = (amount: string, destinationAddress = ADDRESS) => ({ amount, destinationAddress });

  it('should accept an amount within the limits and an address', () => {
    expect(withdrawFormProblem(form('10'), limits, 'en')).toBeNull();
    expect(withdrawFormProblem(form('300'), limits, 'en')).toBeNull();
    // What is typed around the amount is the form's: it sends the amount trimmed.
    expect(withdrawFormProblem(form(' 300 '), limits, 'en')).toBeNull();
    expect(withdrawPreview(' 100 ', 5143)).toMatchObject({ amountMicro: 100_000_000n });
  });

  it("should name the server's message for each limit, amounts in the reader's digits", () => {
    const problem = (amount: string, address?: string) =>
      withdrawFormProblem(form(amount, address), limits, 'en');
    expect(problem('abc')).toEqual({ area: 'withdraw', key: 'invalidAmount' });
    expect(problem('9.99')).toEqual({
      area: 'withdraw',
      key: 'belowMinimum',
      values: { minimum: '10.00' },
    });
    expect(problem('500.01')).toMatchObject({
      key: 'overAvailable',
      values: { available: '500.00' },
    });
    expect(problem('300.01')).toMatchObject({
      key: 'dailyCap',
      values: { cap: '1,000.00', left: '300.00' },
    });
    expect(problem('20', ' ')).toMatchObject({ key: 'addressRequired' });
    expect(problem('20', 'not-an-address')).toMatchObject({ key: 'invalidAddress' });
    expect(problem('20', '11111111111111111111111111111111')).toMatchObject({
      key: 'reservedAddress',
      values: { name: 'System Program' },
    });
    expect(withdrawFormProblem(form('9.99'), limits, 'fa')).toMatchObject({
      values: { minimum: '۱۰٫۰۰' },
    });
  });
});

describe('anyInFlight', () => {
  it('should follow pending and sent withdrawals only', () => {
    expect(anyInFlight([{ status: 'confirmed' }, { status: 'failed' }])).toBe(false);
    expect(anyInFlight([{ status: 'confirmed' }, { status: 'sent' }])).toBe(true);
    expect(anyInFlight([{ status: 'pending' }])).toBe(true);
  });
});
