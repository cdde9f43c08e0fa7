import { describe, expect, it } from '@jest/globals';
import { WITHDRAWAL_MESSAGES } from '@scn/proto';
import { anyInFlight, solText, withdrawFormProblem, withdrawPreview } from './withdraw-rules';

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
    expect(solText(14_582_928n)).toBe('0.014582928');
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
    expect(withdrawFormProblem(form('10'), limits)).toBeNull();
    expect(withdrawFormProblem(form('300'), limits)).toBeNull();
    // What is typed around the amount is the form's: it sends the amount trimmed.
    expect(withdrawFormProblem(form(' 300 '), limits)).toBeNull();
    expect(withdrawPreview(' 100 ', 5143)).toMatchObject({ amountMicro: 100_000_000n });
  });

  it("should say the server's message for each limit", () => {
    expect(withdrawFormProblem(form('abc'), limits)).toBe(WITHDRAWAL_MESSAGES.invalidAmount);
    expect(withdrawFormProblem(form('9.99'), limits)).toBe(
      WITHDRAWAL_MESSAGES.belowMinimum('10.00'),
    );
    expect(withdrawFormProblem(form('500.01'), limits)).toBe(
      WITHDRAWAL_MESSAGES.overAvailable('500.00'),
    );
    expect(withdrawFormProblem(form('300.01'), limits)).toBe(
      WITHDRAWAL_MESSAGES.dailyCap('1000.00', '300.00'),
    );
    expect(withdrawFormProblem(form('20', ' '), limits)).toBe(WITHDRAWAL_MESSAGES.addressRequired);
    expect(withdrawFormProblem(form('20', 'not-an-address'), limits)).toBe(
      WITHDRAWAL_MESSAGES.invalidAddress,
    );
    expect(withdrawFormProblem(form('20', '11111111111111111111111111111111'), limits)).toBe(
      WITHDRAWAL_MESSAGES.reservedAddress('System Program'),
    );
  });
});

describe('anyInFlight', () => {
  it('should follow pending and sent withdrawals only', () => {
    expect(anyInFlight([{ status: 'confirmed' }, { status: 'failed' }])).toBe(false);
    expect(anyInFlight([{ status: 'confirmed' }, { status: 'sent' }])).toBe(true);
    expect(anyInFlight([{ status: 'pending' }])).toBe(true);
  });
});
