import {
  canonicalTimeZone,
  isPrimeTime,
  localTime,
  NORMAL_REWARD_MICRO,
  PRIME_TIME_REWARD_MICRO,
  shareReward,
} from './share-rules';

/**
 * Prime time (docs/product/constants.md#market-prices-and-limits) read at the server's instant in the user's zone: weekdays
 * [12:00, 13:30) and [20:00, 21:30), weekends [10:00, 16:00) and [19:00, 22:00); the start
 * inclusive, the end exclusive. 2026-11-25 is a Wednesday, 2026-11-28 a Saturday.
 */
const ZONES = [
  { zone: 'Asia/Kolkata', offset: '+05:30' },
  { zone: 'Asia/Kathmandu', offset: '+05:45' },
  { zone: 'America/New_York', offset: '-05:00' },
  { zone: 'Europe/Berlin', offset: '+01:00' },
  { zone: 'UTC', offset: 'Z' },
];

const WEEKDAY: Array<[string, boolean]> = [
  ['11:59:59', false],
  ['12:00:00', true],
  ['13:29:59', true],
  ['13:30:00', false],
  ['19:59:59', false],
  ['20:00:00', true],
  ['21:29:59', true],
  ['21:30:00', false],
  ['03:00:00', false],
];
const WEEKEND: Array<[string, boolean]> = [
  ['09:59:59', false],
  ['10:00:00', true],
  ['12:00:00', true],
  ['15:59:59', true],
  ['16:00:00', false],
  ['18:59:59', false],
  ['19:00:00', true],
  ['21:59:59', true],
  ['22:00:00', false],
];

describe('prime time in the user zone', () => {
  for (const { zone, offset } of ZONES) {
    describe(zone, () => {
      it.each(WEEKDAY)('on a Wednesday at %s local: prime %s', (time, prime) => {
        const at = new Date(`2026-11-25T${time}${offset}`);
        expect(isPrimeTime(localTime(at, zone))).toBe(prime);
        expect(shareReward(at, zone, 0n).rewardMicro).toBe(
          prime ? PRIME_TIME_REWARD_MICRO : NORMAL_REWARD_MICRO,
        );
      });
      it.each(WEEKEND)('on a Saturday at %s local: prime %s', (time, prime) => {
        expect(isPrimeTime(localTime(new Date(`2026-11-28T${time}${offset}`), zone))).toBe(prime);
      });
      it.each(WEEKEND)('on a Sunday at %s local: prime %s', (time, prime) => {
        expect(isPrimeTime(localTime(new Date(`2026-11-29T${time}${offset}`), zone))).toBe(prime);
      });
    });
  }

  it('should use the weekday of the zone, not of UTC', () => {
    // Saturday 10:30 in Auckland (+13:00) is Friday 21:30 UTC: weekend prime time there...
    const at = new Date('2026-11-27T21:30:00Z');
    expect(localTime(at, 'Pacific/Auckland')).toMatchObject({ weekday: 6, minutes: 630 });
    expect(shareReward(at, 'Pacific/Auckland', 0n).isPrimeTime).toBe(true);
    // ...and Friday 21:30 in UTC, the end of the weekday window: not prime.
    expect(shareReward(at, 'UTC', 0n).isPrimeTime).toBe(false);
    // Friday 16:00 in Kolkata is not prime (a weekday), Saturday 16:00 neither (end exclusive).
    expect(shareReward(new Date('2026-11-27T15:00:00+05:30'), 'Asia/Kolkata', 0n).isPrimeTime).toBe(
      false,
    );
  });

  it('should follow daylight saving time of the zone', () => {
    // 12:00 in New York in July is 16:00Z (EDT), in November 17:00Z (EST).
    expect(shareReward(new Date('2026-07-15T16:00:00Z'), 'America/New_York', 0n).isPrimeTime).toBe(
      true,
    );
    expect(shareReward(new Date('2026-11-25T16:00:00Z'), 'America/New_York', 0n).isPrimeTime).toBe(
      false,
    );
  });

  it('should give what the daily cap of 1 SSL leaves', () => {
    const prime = new Date('2026-11-25T12:00:00Z');
    const normal = new Date('2026-11-25T09:00:00Z');
    expect(shareReward(prime, 'UTC', 100_000n).rewardMicro).toBe(900_000n);
    expect(shareReward(prime, 'UTC', 1_000_000n).rewardMicro).toBe(0n);
    expect(shareReward(normal, 'UTC', 950_000n).rewardMicro).toBe(50_000n);
    expect(shareReward(normal, 'UTC', 0n).rewardMicro).toBe(100_000n);
  });
});

describe('canonicalTimeZone', () => {
  it('should accept IANA names in any case and answer the canonical one', () => {
    // ICU may answer the older alias (Asia/Calcutta): the same zone.
    expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(canonicalTimeZone('Asia/Kolkata'));
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
  });

  it.each(['Mars/Olympus', 'Europe/Atlantis', '+05:30', '', 'x'.repeat(65), '../../etc'])(
    'should refuse %j',
    (zone) => {
      expect(canonicalTimeZone(zone)).toBeNull();
    },
  );
});
