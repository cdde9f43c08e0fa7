import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { UserType } from '@scn/proto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AuthRepository } from './auth.repository';
import type { CodePurpose } from './entities/verification-code.entity';

/** docs/product/constants.md#market-prices-and-limits and DEVELOPERS.md: 6 digits, 10 minutes, 5 attempts. */
export const CODE_TTL_SECONDS = 10 * 60;
export const CODE_MAX_ATTEMPTS = 5;

export interface CodeTarget {
  email: string;
  userType: UserType;
  purpose: CodePurpose;
}

export type CodeCheck =
  | { outcome: 'valid'; id: string; codeHash: string }
  | { outcome: 'invalid' }
  | { outcome: 'too_many_attempts' };

@Injectable()
export class VerificationCodeService {
  constructor(
    private readonly repository: AuthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Issues a fresh code for the target (replacing any older one) and returns it for mailing. */
  async issue(target: CodeTarget): Promise<string> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.repository.upsertCode(target, this.hash(target, code), CODE_TTL_SECONDS);
    return code;
  }

  /** Checks a submitted code. Every check counts as an attempt; the 6th is refused outright. */
  async check(target: CodeTarget, code: string): Promise<CodeCheck> {
    const stored = await this.repository.recordCodeAttempt(target);
    if (!stored) return { outcome: 'invalid' };
    if (stored.attempts > CODE_MAX_ATTEMPTS) return { outcome: 'too_many_attempts' };
    const submitted = Buffer.from(this.hash(target, code), 'hex');
    const expected = Buffer.from(stored.codeHash, 'hex');
    const matches = submitted.length === expected.length && timingSafeEqual(submitted, expected);
    if (stored.expired || !matches) return { outcome: 'invalid' };
    return { outcome: 'valid', id: stored.id, codeHash: stored.codeHash };
  }

  /** Keyed with the server secret: a leaked table does not reveal codes by brute force. */
  private hash(target: CodeTarget, code: string): string {
    return createHmac('sha256', this.config.appSecret)
      .update(`${target.purpose}:${target.userType}:${target.email}:${code}`)
      .digest('hex');
  }
}
