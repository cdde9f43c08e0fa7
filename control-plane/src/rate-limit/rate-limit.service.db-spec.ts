import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { Clock } from '../common/clock';
import { dataSourceOptions } from '../database/data-source';
import { RateLimitRepository } from './rate-limit.repository';
import { addressKey, type RateLimitRule } from './rate-limit.rules';
import { RateLimitedException, RateLimitService } from './rate-limit.service';

let db: TestDatabase;
let dataSource: DataSource;
let now = new Date('2026-11-24T12:00:00.000Z');
const clock: Clock = { now: () => now };
let service: RateLimitService;
const at = (iso: string) => (now = new Date(iso));

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  service = new RateLimitService(new RateLimitRepository(dataSource), clock);
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

let n = 0;
const rule = (limit: number, windowSeconds: number): RateLimitRule => ({
  bucket: `test:${(n += 1)}`,
  limit,
  windowSeconds,
});

/** 'ok', or the Retry-After seconds of the refusal. */
async function attempt(rules: RateLimitRule[]): Promise<'ok' | number> {
  try {
    await service.consume(rules);
    return 'ok';
  } catch (error) {
    if (error instanceof RateLimitedException) return error.retryAfterSeconds ?? -1;
    throw error;
  }
}

describe('sliding window', () => {
  it('should not admit twice the limit across a minute boundary (a fixed window would)', async () => {
    const limit = rule(5, 60);
    // The last second of one clock minute, then the first seconds of the next: a fixed window
    // aligned on minutes starts counting afresh at 12:01:00 and admits 5 more.
    at('2026-11-24T12:00:59.000Z');
    for (let i = 0; i < 5; i += 1) expect(await attempt([limit])).toBe('ok');
    at('2026-11-24T12:01:01.000Z');
    expect(await attempt([limit])).toBe(58);
    at('2026-11-24T12:01:58.999Z');
    expect(await attempt([limit])).toBe(1);
    // Exactly a window after they were admitted, the five leave it.
    at('2026-11-24T12:01:59.001Z');
    for (let i = 0; i < 5; i += 1) expect(await attempt([limit])).toBe('ok');
    expect(await attempt([limit])).toBe(60);
  });

  it('should free one slot as each admitted request leaves the window', async () => {
    const limit = rule(3, 60);
    for (const s of ['00', '10', '20']) {
      at(`2026-11-24T13:00:${s}.000Z`);
      expect(await attempt([limit])).toBe('ok');
    }
    at('2026-11-24T13:00:30.000Z');
    expect(await attempt([limit])).toBe(30); // the 13:00:00 one leaves at 13:01:00
    at('2026-11-24T13:01:00.001Z');
    expect(await attempt([limit])).toBe('ok');
    expect(await attempt([limit])).toBe(10); // next to leave: 13:00:10
  });

  it('should count a refused request against none of its rules, and name the longest wait', async () => {
    at('2026-11-24T14:00:00.000Z');
    const tight = rule(2, 60);
    const wide = rule(3, 3600);
    expect(await attempt([tight, wide])).toBe('ok');
    expect(await attempt([tight, wide])).toBe('ok');
    // Refused by the tight rule: the wide one must not fill up meanwhile.
    for (let i = 0; i < 10; i += 1) expect(await attempt([tight, wide])).toBe(60);
    const [row] = await dataSource.query<{ hits: Date[] }[]>(
      `SELECT hits FROM rate_limit_buckets WHERE bucket = $1`,
      [wide.bucket],
    );
    expect(row?.hits).toHaveLength(2);
    at('2026-11-24T14:01:00.001Z');
    expect(await attempt([tight, wide])).toBe('ok');
    // The wide rule is full now: its oldest leaves at 15:00:00.
    expect(await attempt([tight, wide])).toBe(3540);
    // Both full: the wait is the longer one.
    at('2026-11-24T14:01:00.002Z');
    const both = rule(1, 60);
    expect(await attempt([both])).toBe('ok');
    expect(await attempt([both, wide])).toBe(3540);
  });

  it('should give a released admission its slots back', async () => {
    at('2026-11-24T15:00:00.000Z');
    const limit = rule(2, 60);
    for (let i = 0; i < 10; i += 1) {
      const admission = await service.consume([limit]);
      await admission.release();
    }
    expect(await attempt([limit])).toBe('ok');
    expect(await attempt([limit])).toBe('ok');
    expect(await attempt([limit])).toBe(60);
  });

  it('should admit exactly the limit when many calls race on other connections', async () => {
    at('2026-11-24T16:00:00.000Z');
    const limit = rule(5, 60);
    const other = rule(100, 60);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => attempt(i % 2 === 0 ? [limit, other] : [other, limit])),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(5);
  });
});

describe('addressKey', () => {
  it('should count an IPv6 client by its /64 and an IPv4 client by its address', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
