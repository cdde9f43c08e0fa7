import type { Transaction } from '../database/transaction-runner';

/**
 * What must happen inside a server's deletion, before its row goes (its clients'
 * unused paid time is refunded and it leaves their subscriptions). Provided by the subscriptions
 * domain, which depends on this one, so the nodes domain names only this interface.
 */
export const SERVER_DELETION = Symbol('SERVER_DELETION');

export interface ServerDeletion {
  /** Runs in the deletion's transaction; answers how many subscriptions lost the server. */
  beforeDelete(manager: Transaction, serverId: string, now: Date): Promise<number>;
}
