import type { AppConfig } from '../config/app-config';
import type { AuthRepository, CodeAttempt } from './auth.repository';
import { VerificationCodeService } from './verification-code.service';

function setup() {
  const stored = new Map<string, { hash: string; attempts: number; expired: boolean }>();
  const repository = {
    upsertCode: jest.fn(async (_t: unknown, hash: string) => {
      stored.set('code', { hash, attempts: 0, expired: false });
    }),
    recordCodeAttempt: jest.fn(async (): Promise<CodeAttempt | null> => {
      const row = stored.get('code');
      if (!row) return null;
      row.attempts += 1;
      return { id: '1', codeHash: row.hash, attempts: row.attempts, expired: row.expired };
    }),
  } as unknown as AuthRepository;
  const service = new VerificationCodeService(repository, {
    appSecret: 's'.repeat(32),
  } as AppConfig);
  return { service, stored };
}

const target = { email: 'a@b.co', userType: 'client' as const, purpose: 'register' as const };

describe('VerificationCodeService', () => {
  it('should issue 6-digit codes and keep only a keyed hash', async () => {
    const { service, stored } = setup();
    const code = await service.issue(target);
    expect(code).toMatch(/^\d{6}$/);
    expect(stored.get('code')?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.get('code')?.hash).not.toContain(code);
  });

  it('should accept the right code and refuse a wrong one', async () => {
    const { service } = setup();
    const code = await service.issue(target);
    const wrong = code === '999999' ? '000000' : String(Number(code) + 1).padStart(6, '0');
    expect((await service.check(target, wrong)).outcome).toBe('invalid');
    expect((await service.check(target, code)).outcome).toBe('valid');
  });

  it('should refuse a code for another purpose or account type', async () => {
    const { service } = setup();
    const code = await service.issue(target);
    expect((await service.check({ ...target, purpose: 'reset' }, code)).outcome).toBe('invalid');
    expect((await service.check({ ...target, userType: 'node' }, code)).outcome).toBe('invalid');
  });

  it('should refuse an expired code', async () => {
    const { service, stored } = setup();
    const code = await service.issue(target);
    stored.get('code')!.expired = true;
    expect((await service.check(target, code)).outcome).toBe('invalid');
  });

  it('should refuse the 6th attempt even with the right code', async () => {
    const { service } = setup();
    const code = await service.issue(target);
    for (let i = 0; i < 5; i += 1) await service.check(target, 'xxxxxx');
    expect((await service.check(target, code)).outcome).toBe('too_many_attempts');
  });

  it('should answer invalid when no code was issued', async () => {
    const { service } = setup();
    expect((await service.check(target, '123456')).outcome).toBe('invalid');
  });
});
