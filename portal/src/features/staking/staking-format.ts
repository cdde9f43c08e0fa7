import { STAKING_MESSAGES, type StakingServer, stakeAmountMicro, toMicro } from '@scn/proto';

/**
 * Display and form rules of the staking settings (docs/product/constants.md#billing-and-the-economy). Amounts arrive as
 * integer micro-SSL strings and are shown as the server gives them; nothing is computed here
 * that the server decides (what can be staked or unstaked is its answer).
 */

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

/** One server's halving state: what the status column says, and its tone. */
export type HalvingStatus =
  | { kind: 'halved'; tone: 'cut'; allowedClients: number | null; maxClients: number | null }
  | { kind: 'protected'; tone: 'warn' }
  | { kind: 'ahead'; tone: 'ok'; from: string };

/** One server's halving line: whether the cut applies, or from when it would. */
export function halvingStatus(server: StakingServer, now: Date): HalvingStatus {
  if (server.halvingCut) {
    return {
      kind: 'halved',
      tone: 'cut',
      allowedClients: server.allowedClients,
      maxClients: server.maxClients,
    };
  }
  if (new Date(server.halvingFrom).getTime() <= now.getTime()) {
    return { kind: 'protected', tone: 'warn' };
  }
  return { kind: 'ahead', tone: 'ok', from: server.halvingFrom };
}

/** Whether the stake covers what halving protection asks so far. */
export function requirementMet(requiredMicro: string, stakeMicro: string): boolean {
  return toMicro(stakeMicro) >= toMicro(requiredMicro);
}
