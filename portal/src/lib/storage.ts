/** Browser storage keys of spec 01 §9. */
export const STORAGE_KEYS = {
  user: 'user',
  token: 'token',
  cookieConsent: 'cookieConsent',
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
