import { formatDate } from '../../lib/i18n/format';
import type { Locale } from '../../lib/i18n/locale';

/**
 * The months an operator can open a statement for (a period is a UTC calendar
 * month, `YYYY-MM`). The current month is the server's (its first answer names it): the portal
 * never decides from its own clock which month is current.
 */

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** The select lists at most this many months (ten years of statements). */
export const MAX_PERIODS = 120;

export function isPeriod(text: string): boolean {
  return PERIOD.test(text);
}

/** The UTC month an ISO instant falls in; null for anything else. */
export function periodOf(iso: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return `${String(at.getUTCFullYear()).padStart(4, '0')}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The period `months` after `period` (negative: before). */
export function shiftPeriod(period: string, months: number): string {
  const match = PERIOD.exec(period);
  if (!match) throw new RangeError(`not a period (YYYY-MM): ${period}`);
  const index = Number(match[1]) * 12 + Number(match[2]) - 1 + months;
  const year = Math.floor(index / 12);
  return `${String(year).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The months to choose from, newest first: from the month of the account's first server to the
 * server's current month (only the current one without a server), at most MAX_PERIODS.
 */
export function periodChoices(firstServerAt: string | null, latest: string): string[] {
  const first = firstServerAt ? periodOf(firstServerAt) : null;
  const choices = [latest];
  while (choices.length < MAX_PERIODS) {
    const earlier = shiftPeriod(choices[choices.length - 1]!, -1);
    if (first === null || earlier < first) break;
    choices.push(earlier);
  }
  return choices;
}

/**
 * "March 2026", "مارس ۲۰۲۶", "март 2026 г.", "2026年3月". A statement's month is a UTC Gregorian
 * month, so Persian names it by the Gregorian month in Persian words and digits: a Solar Hijri
 * month name would name another span of days.
 */
export function periodLabel(period: string, locale: Locale = 'en'): string {
  const match = PERIOD.exec(period);
  if (!match) return period;
  return formatDate(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)), locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
    calendar: 'gregory',
  });
}
