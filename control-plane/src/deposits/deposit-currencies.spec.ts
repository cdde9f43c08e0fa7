import { depositCurrencies, stablecoinCreditMicro } from './deposit-currencies';

const settings = {
  seed: Buffer.alloc(32, 1),
  usdcMint: null,
  usdtMint: null,
  minLamports: 10_000_000n,
  minTokenBaseUnits: 1_000_000n,
};
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY9H1Y4vDLM9Xb3c';

describe('stablecoinCreditMicro', () => {
  it('should credit 28.571428 SSL for 1 whole token (rounded down once)', () => {
    expect(stablecoinCreditMicro(1_000_000n)).toBe(28_571_428n);
  });

  it('should round down and never up when a token amount is not a whole micro-SSL', () => {
    // 1 base unit = 0.000001 $ = 0.0000285714... SSL -> 28 micro-SSL
    expect(stablecoinCreditMicro(1n)).toBe(28n);
    expect(stablecoinCreditMicro(0n)).toBe(0n);
    // $0.035 is exactly 1 SSL.
    expect(stablecoinCreditMicro(35_000n)).toBe(1_000_000n);
    // One rounding at the end, not per whole token: $7 = exactly 200 SSL.
    expect(stablecoinCreditMicro(7_000_000n)).toBe(200_000_000n);
  });
});

describe('depositCurrencies', () => {
  it('should offer only SOL when no stablecoin mint is set', () => {
    expect(depositCurrencies(settings, 5143)).toEqual([
      {
        code: 'SOL',
        mint: null,
        decimals: 9,
        sslPerUnitMicro: '5143000000',
        minimumBaseUnits: '10000000',
        minimum: '0.01',
      },
    ]);
  });

  it('should add USDC and USDT at $1 each when their mints are set', () => {
    const currencies = depositCurrencies({ ...settings, usdcMint: USDC, usdtMint: USDT }, 5143);
    expect(currencies.map((c) => [c.code, c.mint, c.sslPerUnitMicro, c.minimum])).toEqual([
      ['SOL', null, '5143000000', '0.01'],
      ['USDC', USDC, '28571428', '1'],
      ['USDT', USDT, '28571428', '1'],
    ]);
  });

  it('should show a fractional token minimum without trailing zeros', () => {
    const [, usdt] = depositCurrencies(
      { ...settings, usdtMint: USDT, minTokenBaseUnits: 2_500_000n },
      1,
    );
    expect(usdt).toMatchObject({ code: 'USDT', minimumBaseUnits: '2500000', minimum: '2.5' });
  });
});
