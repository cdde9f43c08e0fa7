/** Browser storage keys of docs/product/constants.md#market-prices-and-limits (and docs/product/screens.md#dashboards-and-information-pages). */
export const STORAGE_KEYS = {
  user: 'user',
  token: 'token',
  cookieConsent: 'cookieConsent',
  /** docs/product/screens.md#dashboards-and-information-pages: whether the node dashboard's Quick Setup section is open. */
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
