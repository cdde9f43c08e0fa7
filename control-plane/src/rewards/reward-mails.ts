import { ECONOMICS } from '@scn/proto';
import type { OutgoingMail } from '../mail/mail.service';

const day = (at: Date) => at.toISOString().slice(0, 10);

/** issue 18 §3: the operator is told by e-mail, once, that a server was banned, and why. */
export function serverBannedMail(
  to: string,
  notice: { serverName: string; bannedAt: Date; belowSince: Date | null },
  publicUrl: string,
): OutgoingMail {
  const since = notice.belowSince ? ` since ${day(notice.belowSince)}` : '';
  return {
    to,
    subject: `Your SCN server "${notice.serverName}" was banned`,
    text: [
      `Your server "${notice.serverName}" was banned on ${day(notice.bannedAt)}.`,
      '',
      `Why: its reliability stayed below ${ECONOMICS.hideBelowReliabilityPercent}%${since} and did not recover within ${ECONOMICS.recoveryDays} days.`,
      '',
      'What this means:',
      '- The server stays hidden from the market and earns no more rewards.',
      '- Its frozen rewards (earned while it was below the threshold) return to the reward pool.',
      '- Its subscribers are refunded the paid time they could not use.',
      '',
      `You can see it on your node dashboard: ${publicUrl}/node-dashboard`,
      '',
      `Secure Connection Network - ${publicUrl}`,
    ].join('\n'),
  };
}
