import type { Locale, UserType } from '@scn/proto';
import { translator } from '../i18n/catalogues';
import type { OutgoingMail } from '../mail/mail.service';

/**
 * The auth mails in the reader's language (the `email` catalogue, docs/i18n.md): the account's
 * saved language, or for a sign-up the language the portal showed (its `locale` field, else
 * Accept-Language).
 */

export function verificationCodeMail(
  to: string,
  userType: UserType,
  code: string,
  publicUrl: string,
  locale: Locale,
): OutgoingMail {
  return authMail(to, publicUrl, locale, (t) => ({
    subject: t('verificationCode.subject'),
    body: [
      t('verificationCode.intro', { userType }),
      '',
      `    ${code}`,
      '',
      t('verificationCode.expiry'),
    ],
  }));
}

/**
 * Sent instead of a code when someone asks to register an e-mail that already has an account of
 * that type: the API answers both alike, so only the owner of the mailbox learns which it was.
 */
export function accountExistsMail(
  to: string,
  userType: UserType,
  publicUrl: string,
  locale: Locale,
): OutgoingMail {
  return authMail(to, publicUrl, locale, (t) => ({
    subject: t('accountExists.subject'),
    body: [
      t('accountExists.intro', { userType }),
      '',
      t('accountExists.signIn', { url: publicUrl }),
      t('accountExists.forgot'),
      '',
      t('accountExists.ignore'),
    ],
  }));
}

export function passwordResetMail(
  to: string,
  userType: UserType,
  code: string,
  publicUrl: string,
  locale: Locale,
): OutgoingMail {
  return authMail(to, publicUrl, locale, (t) => ({
    subject: t('passwordReset.subject'),
    body: [
      t('passwordReset.intro', { userType }),
      '',
      t('passwordReset.code', { code }),
      '',
      t('passwordReset.expiry'),
    ],
  }));
}

/** A mail in `locale`: the subject and body `write` gives, then the common footer. */
function authMail(
  to: string,
  publicUrl: string,
  locale: Locale,
  write: (t: ReturnType<typeof translator>) => { subject: string; body: string[] },
): OutgoingMail {
  const t = translator('email', locale);
  const { subject, body } = write(t);
  return { to, subject, text: [...body, '', t('footer', { url: publicUrl })].join('\n') };
}
