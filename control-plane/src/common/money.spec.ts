import { sslNumber } from './money';

describe('sslNumber', () => {
  it('should write every micro-SSL digit exactly when the amount fits a double', () => {
    expect(sslNumber(0n)).toBe(0);
    expect(sslNumber(1n)).toBe(0.000001);
    expect(sslNumber(999_999n)).toBe(0.999999);
    expect(sslNumber(1_000_000n)).toBe(1);
    expect(sslNumber(6_673_612n)).toBe(6.673612);
    expect(sslNumber(12_345_678n)).toBe(12.345678);
    expect(sslNumber(100_000n)).toBe(0.1);
    expect(sslNumber(300_000n)).toBe(0.3);
    expect(JSON.stringify(sslNumber(10_005_000n))).toBe('10.005');
  });

  it('should keep the sign of debts and never write -0', () => {
    expect(sslNumber(-1n)).toBe(-0.000001);
    expect(sslNumber(-6_673_612n)).toBe(-6.673612);
    expect(Object.is(sslNumber(0n), 0)).toBe(true);
  });

  it('should cut toward zero when the amount has more digits than a double holds', () => {
    // 19 significant digits: the 15 first are kept, the rest dropped (never rounded up).
    expect(sslNumber(1_234_567_890_123_456_789n)).toBe(1_234_567_890_123.45);
    expect(sslNumber(9_999_999_999_999_999_999n)).toBe(9_999_999_999_999.99);
    expect(sslNumber(-9_999_999_999_999_999_999n)).toBe(-9_999_999_999_999.99);
    // Exactly 15 digits: nothing to cut.
    expect(sslNumber(123_456_789_012_345n)).toBe(123_456_789.012345);
    // Whole SSL past 15 digits keep their places as zeros.
    expect(sslNumber(12_345_678_901_234_567_000_000n)).toBe(12_345_678_901_234_500);
  });

  it('should agree with the decimal text for every amount up to the supply, never above it', () => {
    for (const micro of [7n, 10_000n, 4_999n, 5_000n, 123_456_789_012n, 9_007_199_254_740_993n]) {
      const shown = sslNumber(micro);
      const exact = Number(micro) / 1e6;
      expect(Math.abs(shown - exact)).toBeLessThanOrEqual(Math.abs(exact) * 1e-15);
      expect(BigInt(Math.round(shown * 1e6))).toBeLessThanOrEqual(micro);
    }
  });
});
