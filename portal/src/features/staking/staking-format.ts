import {
  formatSsl,
  STAKING_MESSAGES,
  type StakingServer,
  stakeAmountMicro,
  toMicro,
} from '@scn/proto';

/**
 * Display and form rules of the staking settings (issue 18 §4, spec 02 §9). Amounts arrive as
 * integer micro-SSL strings and are shown as the server gives them; nothing is computed here
 * that the server decides (what can be staked or unstaked is its answer).
 */

/** spec 01 §9: 2 decimals, thousands grouped: "1,234.50". */
export function sslAmount(micro: string | bigint): string {
  const [whole = '', fraction = ''] = formatSsl(micro).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** The amount typed in the form, as micro-SSL for the call, or the contract's message. */
export function parseAmount(text: string): { amountMicro: string } | { error: string } {
  const parsed = stakeAmountMicro({ amount: text });
  return 'error' in parsed ? parsed : { amountMicro: parsed.micro.toString() };
}

/** The automatic stake percent typed in the form: a whole number from 0 to 100. */
export function parsePercent(text: string): { percent: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d{1,3}$/.test(trimmed)) return { error: STAKING_MESSAGES.percentInvalid };
  const percent = Number(trimmed);
  return percent <= 100 ? { percent } : { error: STAKING_MESSAGES.percentInvalid };
}

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const dayTime = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** "Mar 31, 2026" (UTC: the server's days). */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : day.format(date);
}

/** "Mar 31, 2026, 12:00 PM UTC": when a locked stake unlocks. */
export function formatUnlock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${dayTime.format(date)} UTC`;
}

/** One server's halving line: what is asked this year, and whether the cut applies. */
export function halvingStatus(
  server: StakingServer,
  now: Date,
): { text: string; tone: 'ok' | 'warn' | 'cut' } {
  if (server.halvingCut) {
    const clients =
      server.allowedClients === null || server.maxClients === null
        ? ''
        : `: ${server.allowedClients} of ${server.maxClients} clients allowed`;
    return { text: `Halved${clients}`, tone: 'cut' };
  }
  if (new Date(server.halvingFrom).getTime() <= now.getTime()) {
    return { text: 'Protected while your stake meets the requirement', tone: 'warn' };
  }
  return {
    text: `Halving applies from ${formatDay(server.halvingFrom)} unless staked`,
    tone: 'ok',
  };
}

/** The requirement line: "Required so far 852.00 SSL (met)". */
export function requirementText(requiredMicro: string, stakeMicro: string): string {
  const met = toMicro(stakeMicro) >= toMicro(requiredMicro);
  return `Required so far: ${sslAmount(requiredMicro)} SSL (${met ? 'met' : 'not met'})`;
}
