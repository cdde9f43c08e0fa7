import { proxy, useSnapshot } from 'valtio';
import { STORAGE_KEYS, readJson, writeJson } from '../../lib/storage';

/** docs/product/records.md#market-and-wallet-records "Cookie consent": essential is always true. */
export interface CookieConsent {
  essential: true;
  analytics: boolean;
  marketing: boolean;
  timestamp: string;
}

export interface CookieConsentState {
  consent: CookieConsent | null;
}

export const cookieConsentStore = proxy<CookieConsentState>({
  consent: readJson<CookieConsent>(STORAGE_KEYS.cookieConsent),
});

export function useCookieConsent() {
  return useSnapshot(cookieConsentStore);
}

export function saveCookieConsent(choice: { analytics: boolean; marketing: boolean }): void {
  const consent: CookieConsent = {
    essential: true,
    analytics: choice.analytics,
    marketing: choice.marketing,
    timestamp: new Date().toISOString(),
  };
  writeJson(STORAGE_KEYS.cookieConsent, consent);
  cookieConsentStore.consent = consent;
}
