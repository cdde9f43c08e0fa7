import {
  createDepositRequestSchema,
  depositAddressQuerySchema,
  depositAddressResponseSchema,
  DEPOSIT_MESSAGES,
  LAMPORTS_PER_SOL,
  lamportsForSsl,
  lamportsToSol,
  solAmountSchema,
  solToLamports,
} from './deposits.contract';

const ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

describe('SOL amounts', () => {
  it('should convert decimal SOL to lamports and back without floats', () => {
    expect(solToLamports('1')).toBe(1_000_000_000n);
    expect(solToLamports('0.001')).toBe(1_000_000n);
    expect(solToLamports('12.345678912')).toBe(12_345_678_912n);
    expect(lamportsToSol(1_500_000_000n)).toBe('1.5');
    expect(lamportsToSol(1n)).toBe('0.000000001');
    expect(lamportsToSol(3_000_000_000n)).toBe('3');
  });

  it('should ask the fewest lamports whose floor(SOL x rate) credit is the whole SSL wanted', () => {
    const credit = (lamports: bigint, rate: number) => (lamports * BigInt(rate)) / LAMPORTS_PER_SOL;
    for (const rate of [5143, 1, 7, 100_000]) {
      for (const ssl of [1n, 7n, 25n, 5143n, 1_000_000n]) {
        const lamports = lamportsForSsl(ssl, rate);
        expect(credit(lamports, rate)).toBe(ssl);
        expect(credit(lamports - 1n, rate)).toBe(ssl - 1n);
      }
    }
    expect(lamportsForSsl(5143n, 5143)).toBe(LAMPORTS_PER_SOL);
  });

  it('should take a number or a decimal string of at least 0.001 SOL with at most 9 decimals', () => {
    expect(solAmountSchema.parse(0.25)).toBe('0.25');
    expect(solAmountSchema.parse(' 2 ')).toBe('2');
    for (const bad of ['0', '0.0009', '-1', '1e3', 'abc', '1.0000000001', '', null]) {
      expect(solAmountSchema.safeParse(bad).error?.issues[0]?.message).toBe(
        DEPOSIT_MESSAGES.invalidAmount,
      );
    }
  });

  it('should refuse a deposit request without a valid Solana address', () => {
    expect(createDepositRequestSchema.parse({ solAmount: '1', userAddress: ADDRESS })).toEqual({
      solAmount: '1',
      userAddress: ADDRESS,
    });
    const bad = createDepositRequestSchema.safeParse({ solAmount: '1', userAddress: '0xabc' });
    expect(bad.error?.issues[0]?.message).toBe(DEPOSIT_MESSAGES.invalidAddress);
  });
});

describe('deposit address contract', () => {
  it('should accept only client or node as the wallet, and no wallet at all', () => {
    expect(depositAddressQuerySchema.parse({})).toEqual({});
    expect(depositAddressQuerySchema.parse({ wallet: 'node' })).toEqual({ wallet: 'node' });
    expect(depositAddressQuerySchema.safeParse({ wallet: 'treasury' }).success).toBe(false);
  });

  it('should refuse a currency other than SOL, USDC and USDT in an answer', () => {
    const answer = {
      success: true,
      address: ADDRESS,
      wallet: 'client',
      currencies: [
        {
          code: 'SOL',
          mint: null,
          decimals: 9,
          sslPerUnitMicro: '5143000000',
          minimumBaseUnits: '10000000',
          minimum: '0.01',
        },
      ],
    };
    expect(depositAddressResponseSchema.parse(answer)).toEqual(answer);
    const bonk = { ...answer, currencies: [{ ...answer.currencies[0], code: 'BONK' }] };
    expect(depositAddressResponseSchema.safeParse(bonk).success).toBe(false);
  });
});
