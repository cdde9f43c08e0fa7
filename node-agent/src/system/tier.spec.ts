import { checkTier, tierCapacity } from './tier';

const GIB = 1024 ** 3;

describe('checkTier', () => {
  it('should accept tier2 when 2 cores and 1.9 GiB RAM (the 90% rule)', () => {
    const result = checkTier({ cpuCores: 2, ramBytes: 1.9 * GIB }, 'tier2');
    expect(result.ok).toBe(true);
  });

  it('should refuse with the reason when cores or RAM fall short', () => {
    const result = checkTier({ cpuCores: 1, ramBytes: 1.7 * GIB }, 'tier2');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('1 CPU core(s), the tier needs 2');
    expect(result.reason).toContain('1.70 GiB RAM');
  });

  it('should refuse an unknown tier', () => {
    const result = checkTier({ cpuCores: 64, ramBytes: 64 * GIB }, 'tier9');
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('unknown tier "tier9"') });
  });

  it('should give the capacity of each tier from the tier table', () => {
    expect([tierCapacity('tier1'), tierCapacity('tier2'), tierCapacity('tier4')]).toEqual([
      10, 25, 140,
    ]);
    expect(tierCapacity('nope')).toBeNull();
  });
});
