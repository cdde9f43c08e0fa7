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
