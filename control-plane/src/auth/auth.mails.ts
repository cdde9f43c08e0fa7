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
  const t = translator('email', locale);
  return {
    to,
    subject: t('verificationCode.subject'),
    text: [
      t('verificationCode.intro', { userType }),
      '',
      `    ${code}`,
      '',
      t('verificationCode.expiry'),
      '',
      t('footer', { url: publicUrl }),
    ].join('\n'),
  };
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
  const t = translator('email', locale);
  return {
    to,
    subject: t('accountExists.subject'),
    text: [
      t('accountExists.intro', { userType }),
      '',
      t('accountExists.signIn', { url: publicUrl }),
      t('accountExists.forgot'),
      '',
      t('accountExists.ignore'),
      '',
      t('footer', { url: publicUrl }),
    ].join('\n'),
  };
}

export function passwordResetMail(
  to: string,
  userType: UserType,
  code: string,
  publicUrl: string,
  locale: Locale,
): OutgoingMail {
  const t = translator('email', locale);
  return {
    to,
    subject: t('passwordReset.subject'),
    text: [
      t('passwordReset.intro', { userType }),
      '',
      t('passwordReset.code', { code }),
      '',
      t('passwordReset.expiry'),
      '',
      t('footer', { url: publicUrl }),
    ].join('\n'),
  };
}
