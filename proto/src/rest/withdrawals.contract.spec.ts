import {
  parseSslAmount,
  reservedAddressName,
  SOLANA_RESERVED_ADDRESSES,
  withdrawalAmountMicro,
  withdrawalQuote,
  withdrawalSuccessMessage,
  withdrawRequestSchema,
  WITHDRAWAL_MESSAGES,
} from './withdrawals.contract';

const ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

describe('withdrawal amounts', () => {
  it('should parse decimal SSL to micro-SSL without floats', () => {
    expect(parseSslAmount('1')).toBe(1_000_000n);
    expect(parseSslAmount('12.5')).toBe(12_500_000n);
    expect(parseSslAmount('0.000001')).toBe(1n);
    expect(parseSslAmount('007.5')).toBe(7_500_000n);
    expect(parseSslAmount('999999999999.999999')).toBe(999_999_999_999_999_999n);
  });

  it('should refuse anything but digits with at most 6 decimals: no sign, exponent or space', () => {
    for (const bad of [
      '',
      '-1',
      '+1',
      '1.',
      '.5',
      '1.0000001',
      '1e3',
      '1E3',
      '0x10',
      'ten',
      '1,5',
      '1 000',
      ' 100',
      '100 ',
      '\t100',
      '100\n',
      '\u00a0100',
      '\u0661\u0660\u0660',
      '1234567890123',
      'Infinity',
      'NaN',
    ])
      expect(parseSslAmount(bad)).toBeNull();
  });

  it('should take a JSON number as exactly the decimal it writes, or not at all', () => {
    expect(withdrawalAmountMicro(100)).toBe(100_000_000n);
    expect(withdrawalAmountMicro(10.25)).toBe(10_250_000n);
    expect(withdrawalAmountMicro(0.000001)).toBe(1n);
    // JSON's 1e3 is the number one thousand: an exponent in a number is only its notation.
    expect(withdrawalAmountMicro(1e3)).toBe(1_000_000_000n);
    // 15 significant digits: exact in a double.
    expect(withdrawalAmountMicro(123456789.123456)).toBe(123_456_789_123_456n);
    for (const bad of [
      -1,
      1e-7,
      1e21,
      0.1234567,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      // 17 significant digits: the double is 123456789012.12346, not what was written.
      JSON.parse('123456789012.12345') as number,
    ])
      expect(withdrawalAmountMicro(bad)).toBeNull();
    for (const bad of [true, null, undefined, [1], { amount: 1 }, 1n])
      expect(withdrawalAmountMicro(bad)).toBeNull();
    expect(withdrawalAmountMicro('12.5')).toBe(12_500_000n);
    expect(withdrawalAmountMicro(' 12.5')).toBeNull();
  });

  it('should take the 25% fee (rounded up) and pay the rest at the rate, rounded down', () => {
    // 100 SSL: 25 fee, 75 net; 75 SSL / 5143 SSL per SOL = 0.014582928... SOL.
    expect(withdrawalQuote(100_000_000n, 5143)).toEqual({
      amountMicro: 100_000_000n,
      feeMicro: 25_000_000n,
      netMicro: 75_000_000n,
      lamports: 14_582_928n,
      sslPerSol: 5143,
    });
    // 1 micro-SSL: the fee rounds up to the whole of it.
    expect(withdrawalQuote(1n, 5143)).toMatchObject({ feeMicro: 1n, netMicro: 0n, lamports: 0n });
    // 3 micro-SSL: 0.75 rounds up to 1.
    expect(withdrawalQuote(3n, 1)).toMatchObject({ feeMicro: 1n, netMicro: 2n, lamports: 2000n });
  });

  it('should keep amount = fee + net and never pay more SOL than the net is worth', () => {
    for (const rate of [1, 7, 5143, 1_000_000]) {
      for (const amount of [1n, 99n, 10_000n, 123_456_789n, 10n ** 18n]) {
        const quote = withdrawalQuote(amount, rate);
        expect(quote.feeMicro + quote.netMicro).toBe(amount);
        expect(quote.feeMicro * 100n).toBeGreaterThanOrEqual(amount * 25n);
        expect((quote.feeMicro - 1n) * 100n).toBeLessThan(amount * 25n);
        // lamports x rate / 10^3 micro-SSL is at most the net, and one more lamport exceeds it.
        expect(quote.lamports * BigInt(rate)).toBeLessThanOrEqual(quote.netMicro * 1000n);
        expect((quote.lamports + 1n) * BigInt(rate)).toBeGreaterThan(quote.netMicro * 1000n);
      }
    }
  });

  it('should refuse a zero amount or a bad rate', () => {
    expect(() => withdrawalQuote(0n, 5143)).toThrow();
    expect(() => withdrawalQuote(1n, 0)).toThrow();
    expect(() => withdrawalQuote(1n, 1.5)).toThrow();
  });

  it("should say the spec's success message with the exact amount", () => {
    expect(withdrawalSuccessMessage(12_500_000n, ADDRESS)).toBe(
      `Successfully withdrew 12.5 SSL to ${ADDRESS}`,
    );
  });
});

describe('withdraw request', () => {
  it('should accept a decimal string or a number and a base58 address', () => {
    expect(withdrawRequestSchema.parse({ amount: '10.25', destinationAddress: ADDRESS })).toEqual({
      amount: '10.25',
      destinationAddress: ADDRESS,
    });
    expect(withdrawRequestSchema.parse({ amount: 7, destinationAddress: ` ${ADDRESS}` })).toEqual({
      amount: 7,
      destinationAddress: ADDRESS,
    });
  });

  it('should refuse every amount outside the grammar with the same message', () => {
    for (const amount of [' 100', '100 ', '+100', '1e3', '0', 0, -5, 1e-7, '', null, undefined, {}])
      expect(
        withdrawRequestSchema.safeParse({ amount, destinationAddress: ADDRESS }).error?.issues[0]
          ?.message,
      ).toBe(WITHDRAWAL_MESSAGES.invalidAmount);
  });

  it('should refuse a bad amount or address with the message the portal shows', () => {
    const message = (body: unknown) =>
      withdrawRequestSchema.safeParse(body).error?.issues[0]?.message;
    expect(message({ amount: '0', destinationAddress: ADDRESS })).toBe(
      WITHDRAWAL_MESSAGES.invalidAmount,
    );
    expect(message({ amount: '1.1234567', destinationAddress: ADDRESS })).toBe(
      WITHDRAWAL_MESSAGES.invalidAmount,
    );
    expect(message({ amount: true, destinationAddress: ADDRESS })).toBe(
      WITHDRAWAL_MESSAGES.invalidAmount,
    );
    expect(message({ amount: '1', destinationAddress: '' })).toBe(
      WITHDRAWAL_MESSAGES.addressRequired,
    );
    expect(message({ amount: '1' })).toBe(WITHDRAWAL_MESSAGES.addressRequired);
    expect(message({ amount: '1', destinationAddress: '0OIl' + ADDRESS.slice(4) })).toBe(
      WITHDRAWAL_MESSAGES.invalidAddress,
    );
  });
});

describe('reserved addresses', () => {
  it("should name each of Solana's own addresses, in canonical base58, and nothing else", () => {
    expect(reservedAddressName('11111111111111111111111111111111')).toBe('System Program');
    expect(reservedAddressName(ADDRESS)).toBeNull();
    expect(reservedAddressName('toString')).toBeNull();
    expect(reservedAddressName('__proto__')).toBeNull();
    for (const [address, name] of Object.entries(SOLANA_RESERVED_ADDRESSES)) {
      expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(reservedAddressName(address)).toBe(name);
      expect(WITHDRAWAL_MESSAGES.reservedAddress(name)).toContain(`Solana's ${name}, not a wallet`);
    }
  });
});
