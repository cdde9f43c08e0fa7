import { firstIssueMessage, walletQuerySchema } from '../index';

function beforeMessage(before: string): string | null {
  const result = walletQuerySchema.safeParse({ before });
  return result.success ? null : firstIssueMessage(result.error);
}

describe('walletQuerySchema', () => {
  it('should take a transaction id up to the largest bigint as the cursor', () => {
    expect(beforeMessage('1')).toBeNull();
    expect(beforeMessage('9223372036854775807')).toBeNull();
  });

  it('should refuse a cursor PostgreSQL cannot compare with a bigint id', () => {
    for (const before of ['9223372036854775808', '9999999999999999999', '12345678901234567890']) {
      expect(beforeMessage(before)).toBe('before must be a transaction id');
    }
  });

  it('should refuse a cursor that is not a decimal id', () => {
    for (const before of ['', '-1', '1.5', '1e3', '0x10', ' 1', 'abc']) {
      expect(beforeMessage(before)).toBe('before must be a transaction id');
    }
  });
});
