/**
 * The client's reachability check (docs/reachability.md): consent kept in this browser, and what
 * a report's failure means for the reader. Pure over a Storage, so it is unit-tested.
 */
import { ApiError } from '../../lib/api-error';
import { STORAGE_KEYS } from '../../lib/storage';

type ConsentStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** When the client agreed to send reports (ISO), or null: never, or withdrawn. */
export function readConsent(storage: ConsentStorage): string | null {
  try {
    const value = storage.getItem(STORAGE_KEYS.reachabilityConsent);
    return value && !Number.isNaN(Date.parse(value)) ? value : null;
  } catch {
    return null;
  }
}

export function giveConsent(storage: ConsentStorage, at: Date): string {
  const value = at.toISOString();
  try {
    storage.setItem(STORAGE_KEYS.reachabilityConsent, value);
  } catch {
    // Private mode without storage: consent holds for this page only.
  }
  return value;
}

export function withdrawConsent(storage: ConsentStorage): void {
  try {
    storage.removeItem(STORAGE_KEYS.reachabilityConsent);
  } catch {
    // Nothing stored, nothing to withdraw.
  }
}

/**
 * Why a report was not recorded, as the reader is told: too many reports for now (429, with the
 * minutes to wait), refused (403/404: not their server or account; the API's message by code), or
 * anything else (try again).
 */
export type ReportFailure =
  { kind: 'rateLimited'; minutes: number } | { kind: 'refused' } | { kind: 'failed' };

export function reportFailure(error: unknown): ReportFailure {
  if (!(error instanceof ApiError)) return { kind: 'failed' };
  if (error.status === 429) {
    const seconds = Number(error.details.retryAfterSeconds);
    return { kind: 'rateLimited', minutes: seconds > 0 ? Math.ceil(seconds / 60) : 1 };
  }
  if (error.status === 403 || error.status === 404) return { kind: 'refused' };
  return { kind: 'failed' };
}

/** The payload of 'subscription-updated' that asks for the replacement notice. */
export function isServerReplaced(payload: unknown): boolean {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    (payload as { reason?: unknown }).reason === 'server_replaced'
  );
}
