import { PRIVACY_VERSION, TERMS_VERSION, type TermsAcceptRequest, type UserType } from '@scn/proto';

export interface BrowserInfo {
  browser: string;
  os: string;
  screenResolution: string;
}

/** Browser name and major version from a user-agent string; order matters (Edge and Opera say Chrome too). */
export function parseBrowser(userAgent: string): string {
  const rules: Array<[RegExp, string]> = [
    [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
    [/(?:OPR|Opera)\/(\d+)/, 'Opera'],
    [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/FxiOS\/(\d+)/, 'Firefox'],
    [/CriOS\/(\d+)/, 'Chrome'],
    [/(?:Chrome|Chromium)\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari/, 'Safari'],
  ];
  for (const [pattern, name] of rules) {
    const match = pattern.exec(userAgent);
    if (match) return `${name} ${match[1] ?? ''}`.trim();
  }
  return 'Unknown';
}

export function parseOs(userAgent: string): string {
  if (/Windows NT/.test(userAgent)) return 'Windows';
  if (/Android/.test(userAgent)) return 'Android';
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'iOS';
  if (/Mac OS X|Macintosh/.test(userAgent)) return 'macOS';
  if (/CrOS/.test(userAgent)) return 'ChromeOS';
  if (/Linux/.test(userAgent)) return 'Linux';
  return 'Unknown';
}

export function browserInfo(): BrowserInfo {
  const userAgent = navigator.userAgent;
  return {
    browser: parseBrowser(userAgent),
    os: parseOs(userAgent),
    screenResolution: `${window.screen.width}x${window.screen.height}`,
  };
}

export interface TermsRecordInput {
  uuid: string;
  email: string;
  userType: UserType;
  acceptedTerms: boolean;
  acceptedPrivacy: boolean;
}

/**
 * The terms-acceptance record of docs/product/records.md#market-and-wallet-records. Deliberately without an external geolocation
 * look-up: a no-logs product must not hand its visitors to a third party. The location is
 * 'Unknown' (the spec's fallback) and the server records the IP address itself.
 */
export function buildTermsRecord(input: TermsRecordInput): TermsAcceptRequest {
  return {
    userType: input.userType,
    email: input.email,
    uuid: input.uuid,
    name: input.email.split('@')[0] ?? input.email,
    acceptedTerms: input.acceptedTerms,
    acceptedPrivacy: input.acceptedPrivacy,
    timestamp: new Date().toISOString(),
    userAgent: navigator.userAgent.slice(0, 1024),
    browserInfo: browserInfo(),
    location: { city: 'Unknown', region: 'Unknown', country: 'Unknown' },
    termsVersion: TERMS_VERSION,
    privacyVersion: PRIVACY_VERSION,
  };
}
