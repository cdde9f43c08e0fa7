/** The node dashboard's reachability rules (docs/reachability.md), pure for their specs. */
import { AUTO_REGENERATION_INTERVALS_S, type ReachabilityRow } from '@scn/proto';

export type AutoRegenerationInterval = (typeof AUTO_REGENERATION_INTERVALS_S)[number];

/** The select's value: 'off' or an interval's seconds as text. */
export type AutoRegenerationChoice = 'off' | `${AutoRegenerationInterval}`;

export const AUTO_REGENERATION_CHOICES: readonly AutoRegenerationChoice[] = [
  'off',
  ...AUTO_REGENERATION_INTERVALS_S.map((seconds) => `${seconds}` as const),
];

/** The server's setting as the select shows it; an interval this portal does not offer is off. */
export function choiceOf(intervalS: number | null): AutoRegenerationChoice {
  const found = AUTO_REGENERATION_INTERVALS_S.find((seconds) => seconds === intervalS);
  return found === undefined ? 'off' : `${found}`;
}

/** What the PUT sends for a choice: null for off, else the seconds. */
export function intervalOf(choice: AutoRegenerationChoice): number | null {
  return choice === 'off' ? null : Number(choice);
}

/** How many countries and networks a server is blocked in now. */
export function blockedCount(rows: readonly Pick<ReachabilityRow, 'state'>[]): number {
  return rows.filter((row) => row.state === 'blocked').length;
}
