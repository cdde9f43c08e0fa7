import { SHARE_DAILY_CAP_MICRO, SHARE_PRIME_TIME, SHARE_REWARD, sslToMicro } from '@scn/proto';

/**
 * The pure rules of share-and-earn (docs/product/constants.md#market-prices-and-limits): the user's local time in a stated
 * IANA zone at the server's instant, prime time, the reward and the daily cap. No clock is read
 * here: the caller passes the server's `now` (never a client's clock).
 */

export const NORMAL_REWARD_MICRO = sslToMicro(SHARE_REWARD.normalSsl);
export const PRIME_TIME_REWARD_MICRO = sslToMicro(SHARE_REWARD.primeTimeSsl);
export const SHARE_COOLDOWN_MS = SHARE_REWARD.cooldownDays * 86_400_000;
export const SHARE_PENDING_MS = SHARE_REWARD.pendingHours * 3_600_000;
/** The daily cap counts the shares of the last 24 hours (a rolling window, any zone). */
export const DAILY_CAP_WINDOW_MS = 86_400_000;

const MAX_ZONE_LENGTH = 64;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The canonical name of an IANA time zone as this runtime's Intl knows it ("europe/berlin" ->
 * "Europe/Berlin"), or null when Intl does not know it. Offsets such as "+05:30" are refused:
 * the zone must be a name, so daylight saving time follows the zone's rules.
 */
export function canonicalTimeZone(text: string): string | null {
  if (text.length === 0 || text.length > MAX_ZONE_LENGTH || !/^[A-Za-z]/.test(text)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    // Bounded: only zones Intl accepted get here, a few hundred at most.
    if (formatters.size < 1_000) formatters.set(timeZone, format);
  }
  return format;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export interface LocalTime {
  /** 0 Sunday ... 6 Saturday, in the zone. */
  weekday: number;
  /** Minutes since the zone's local midnight. */
  minutes: number;
  /** "Sat 12:05:00" for messages and records. */
  text: string;
}

/** The wall-clock time at `at` in `timeZone` (a zone canonicalTimeZone accepted). */
export function localTime(at: Date, timeZone: string): LocalTime {
  const parts = formatter(timeZone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  const weekday = WEEKDAYS.indexOf(part('weekday'));
  const hour = Number(part('hour'));
  const minute = Number(part('minute'));
  if (weekday < 0 || !Number.isInteger(hour) || !Number.isInteger(minute)) {
    throw new Error(`cannot read the local time in ${timeZone}`);
  }
  return {
    weekday,
    minutes: hour * 60 + minute,
    text: `${part('weekday')} ${part('hour')}:${part('minute')}:${part('second')}`,
  };
}

/**
 * Whether a local time is prime time: `SHARE_PRIME_TIME` of @scn/proto (weekdays 12:00-13:30 and
 * 20:00-21:30; Saturday and Sunday 10:00-16:00 and 19:00-22:00), the start inclusive and the end
 * exclusive, so 13:30:00 is no longer prime time but 13:29:59 is.
 */
export function isPrimeTime(local: Pick<LocalTime, 'weekday' | 'minutes'>): boolean {
  const weekend = SHARE_PRIME_TIME.weekendDays.includes(local.weekday);
  const windows = weekend ? SHARE_PRIME_TIME.weekend : SHARE_PRIME_TIME.weekday;
  return windows.some(([start, end]) => local.minutes >= start && local.minutes < end);
}

export interface ShareReward {
  isPrimeTime: boolean;
  /** What the rule gives (1 or 0.1 SSL). */
  ruleMicro: bigint;
  /** What is paid: the rule's amount within the daily cap. */
  rewardMicro: bigint;
  local: LocalTime;
}

/**
 * The reward of a share made at the server's `now` by a user in `timeZone`, given what the
 * account's shares of the last 24 hours already earn (`earnedTodayMicro`): 1 SSL at prime time,
 * else 0.1 SSL, cut to what the daily cap leaves. `rewardMicro` 0 means the cap is reached.
 */
export function shareReward(now: Date, timeZone: string, earnedTodayMicro: bigint): ShareReward {
  const local = localTime(now, timeZone);
  const prime = isPrimeTime(local);
  const ruleMicro = prime ? PRIME_TIME_REWARD_MICRO : NORMAL_REWARD_MICRO;
  const left = SHARE_DAILY_CAP_MICRO - earnedTodayMicro;
  const rewardMicro = left <= 0n ? 0n : left < ruleMicro ? left : ruleMicro;
  return { isPrimeTime: prime, ruleMicro, rewardMicro, local };
}
