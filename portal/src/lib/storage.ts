/** Browser storage keys of spec 01 §9 (and spec 02 §2). */
export const STORAGE_KEYS = {
  user: 'user',
  token: 'token',
  cookieConsent: 'cookieConsent',
  /** spec 02 §2: whether the node dashboard's Quick Setup section is open. */
  quickSetupOpen: 'quickSetupOpen',
  /** docs/reachability.md: the client agreed to send reachability reports (when, ISO). */
  reachabilityConsent: 'reachabilityConsent',
} as const;

export function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}
