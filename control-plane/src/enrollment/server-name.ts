import type { EnrollingOwner } from './enrollment.repository';

/** The account that owns the demo nodes of `npm start` (it cannot sign in: random password). */
export const DEMO_OPERATOR_EMAIL = 'demo-operator@scn.local';

/** Demo servers are named as such; others get a short name from their id. */
export function serverName(owner: EnrollingOwner | null, id: string): string {
  if (owner?.email === DEMO_OPERATOR_EMAIL) return `Demo node ${owner.servers + 1}`;
  return `Node ${id.slice(0, 8)}`;
}
