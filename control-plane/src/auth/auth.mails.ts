import type { UserType } from '@scn/proto';
import type { OutgoingMail } from '../mail/mail.service';

const ACCOUNT_LABEL: Record<UserType, string> = { client: 'Client', node: 'Node Operator' };

export function verificationCodeMail(
  to: string,
  userType: UserType,
  code: string,
  publicUrl: string,
): OutgoingMail {
  return {
    to,
    subject: 'Your SCN verification code',
    text: [
      `Your verification code for a new SCN ${ACCOUNT_LABEL[userType]} account is:`,
      '',
      `    ${code}`,
      '',
      'It expires in 10 minutes. If you did not ask for it, ignore this e-mail.',
      '',
      `Secure Connection Network - ${publicUrl}`,
    ].join('\n'),
  };
}

/**
 * Sent instead of a code when someone asks to register an e-mail that already has an account of
 * that type: the API answers both alike, so only the owner of the mailbox learns which it was.
 */
export function accountExistsMail(to: string, userType: UserType, publicUrl: string): OutgoingMail {
  return {
    to,
    subject: 'Your SCN account',
    text: [
      `Someone asked to register a new SCN ${ACCOUNT_LABEL[userType]} account for this address, but one already exists.`,
      '',
      `To use it, sign in at ${publicUrl} with this e-mail address.`,
      `Forgot your password? Choose "Forgot password" on the sign-in form and we will e-mail you a reset code.`,
      '',
      'If you did not ask for this, ignore this e-mail: nothing has changed.',
      '',
      `Secure Connection Network - ${publicUrl}`,
    ].join('\n'),
  };
}

export function passwordResetMail(
  to: string,
  userType: UserType,
  code: string,
  publicUrl: string,
): OutgoingMail {
  return {
    to,
    subject: 'Your SCN password reset code',
    text: [
      `Someone asked to reset the password of the SCN ${ACCOUNT_LABEL[userType]} account for this address.`,
      '',
      `Your reset code is:    ${code}`,
      '',
      'It expires in 10 minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.',
      '',
      `Secure Connection Network - ${publicUrl}`,
    ].join('\n'),
  };
}
