import { ECONOMICS, type Locale } from '@scn/proto';
import { INTL_TAGS, isolate, translator } from '../i18n/catalogues';
import type { OutgoingMail } from '../mail/mail.service';

/**
 * The operator is told by e-mail, once, that a server was banned, and why; in the
 * account's saved language (the `email` catalogue, docs/i18n.md), English without one.
 */
export function serverBannedMail(
  to: string,
  notice: { serverName: string; bannedAt: Date; belowSince: Date | null; locale?: Locale | null },
  publicUrl: string,
): OutgoingMail {
  const locale = notice.locale ?? 'en';
  const t = translator('email', locale);
  const day = (at: Date) =>
    new Intl.DateTimeFormat(INTL_TAGS[locale], { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
  const name = isolate(notice.serverName);
  const rule = {
    threshold: ECONOMICS.hideBelowReliabilityPercent,
    days: ECONOMICS.recoveryDays,
  };
  return {
    to,
    subject: t('serverBanned.subject', { name }),
    text: [
      t('serverBanned.banned', { name, date: day(notice.bannedAt) }),
      '',
      notice.belowSince
        ? t('serverBanned.whySince', { ...rule, since: day(notice.belowSince) })
        : t('serverBanned.why', rule),
      '',
      t('serverBanned.means'),
      t('serverBanned.hidden'),
      t('serverBanned.frozen'),
      t('serverBanned.refunded'),
      '',
      t('serverBanned.dashboard', { url: `${publicUrl}/node-dashboard` }),
      '',
      t('footer', { url: publicUrl }),
    ].join('\n'),
  };
}
