import { Injectable } from '@nestjs/common';
import { DomainException, type ErrorKinds } from '../common/domain.exception';
import { RateLimitRepository } from './rate-limit.repository';
import type { RateLimitRule } from './rate-limit.rules';

export class RateLimitedException extends DomainException {
  static readonly kinds: ErrorKinds<'rate_limited'> = { rate_limited: 'rate_limited' };
  readonly code = 'rate_limited';

  constructor(retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    const wait = minutes <= 1 ? 'a minute' : `${minutes} minutes`;
    super('rate_limited', `Too many requests. Please try again in ${wait}.`, retryAfterSeconds);
  }
}

@Injectable()
export class RateLimitService {
  private calls = 0;

  constructor(private readonly repository: RateLimitRepository) {}

  /** Counts the request against every rule; throws 429 when any of them is over its limit. */
  async consume(rules: readonly RateLimitRule[]): Promise<void> {
    const counts = await this.repository.hit(rules);
    if (++this.calls % 500 === 0) void this.repository.pruneExpired().catch(() => undefined);
    const limitByBucket = new Map(rules.map((r) => [r.bucket, r.limit]));
    const exceeded = counts.filter((c) => c.hits > (limitByBucket.get(c.bucket) ?? Infinity));
    if (exceeded.length > 0) {
      throw new RateLimitedException(Math.max(...exceeded.map((c) => c.retryAfterSeconds)));
    }
  }
}
