import { formatDate } from '../../lib/i18n/format';
import type { Locale } from '../../lib/i18n/locale';

/** What the FAQ and documentation pages share. */

/** The official release pages of the Android apps, for where Google Play is blocked (China). */
export const ANDROID_RELEASES = {
  v2rayNG: 'https://github.com/2dust/v2rayNG/releases',
  hiddify: 'https://github.com/hiddify/hiddify-app/releases',
} as const;

/** The launch period's last day in the reader's calendar, read in UTC so no zone shifts it. */
export function launchEndText(lastDay: string, locale: Locale): string {
  return formatDate(`${lastDay}T00:00:00Z`, locale, {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
