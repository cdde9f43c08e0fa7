import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { DomainException, type ErrorKinds } from '../common/domain.exception';
import { RateLimitRepository } from './rate-limit.repository';
import type { RateLimitRule } from './rate-limit.rules';

export class RateLimitedException extends DomainException {
  static override readonly domain = 'common';
  static readonly kinds: ErrorKinds<'rate_limited'> = { rate_limited: 'rate_limited' };
  readonly code = 'rate_limited';

  constructor(retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    const wait = minutes <= 1 ? 'a minute' : `${minutes} minutes`;
    super('rate_limited', `Too many requests. Please try again in ${wait}.`, retryAfterSeconds);
  }
}

/** A request admitted by consume(): it can give its slots back when it turns out harmless. */
export interface Admission {
  release(): Promise<void>;
}

@Injectable()
export class RateLimitService {
  private calls = 0;

  constructor(
    private readonly repository: RateLimitRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Counts the request against every rule if all of them have room; otherwise counts it nowhere
   * and throws 429 with Retry-After: when the last full bucket has room again.
   */
  async consume(rules: readonly RateLimitRule[]): Promise<Admission> {
    const at = this.clock.now();
    const refusals = await this.repository.take(rules, at);
    if (++this.calls % 500 === 0) void this.repository.pruneExpired(at).catch(() => undefined);
    if (refusals.length > 0) {
      const waitMs = Math.max(...refusals.map((r) => r.retryAfterMs));
      throw new RateLimitedException(Math.max(1, Math.ceil(waitMs / 1000)));
    }
    const buckets = rules.map((r) => r.bucket);
    return { release: () => this.repository.giveBack(buckets, at) };
  }
}
