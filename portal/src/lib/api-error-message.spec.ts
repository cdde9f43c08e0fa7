import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiErrorCodes } from '@scn/proto';
import ICU from 'i18next-icu';
import { ApiError } from './api-error';
import { apiErrorMessage } from './api-error-message';
import { i18n } from './i18n/i18n';
import { LOCALES, type Locale } from './i18n/locale';

type Catalogue = { [key: string]: string | Catalogue };

function catalogue(locale: Locale): Catalogue {
  const file = join(__dirname, '../locales/errors', `${locale}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Catalogue;
}

/** The `api` section's keys as codes: `{ wallet: { insufficient_balance } }` -> wallet.insufficient_balance. */
function translatedCodes(locale: Locale): string[] {
  const api = catalogue(locale).api as Record<string, Record<string, string>>;
  return Object.entries(api).flatMap(([domain, codes]) =>
    Object.entries(codes)
      .filter(([, message]) => typeof message === 'string' && message.trim() !== '')
      .map(([code]) => `${domain}.${code}`),
  );
}

describe('the errors catalogue', () => {
  // Every code of every domain's `static kinds` (the control plane's error-statuses suite keeps
  // API_ERROR_CODES equal to them): a new code without a message in every language fails here.
  it.each(LOCALES)(
    'should have a message for every API error code, and only those, in %s',
    (locale) => {
      expect(translatedCodes(locale).sort()).toEqual([...apiErrorCodes()].sort());
    },
  );
});

describe('apiErrorMessage', () => {
  beforeAll(async () => {
    const resources = Object.fromEntries(
      LOCALES.map((locale) => [locale, { errors: catalogue(locale) }]),
    );
    await i18n.use(ICU).init({
      resources,
      lng: 'en',
      fallbackLng: 'en',
      ns: ['errors'],
      interpolation: { escapeValue: false },
    });
  });
  afterAll(() => undefined);

  const message = (error: unknown, locale: Locale, fallback?: string) =>
    apiErrorMessage(error, i18n.getFixedT(locale, 'errors'), locale, fallback);

  const shortfall = new ApiError(
    'Insufficient balance. You need 20.00 SSL but have 15.00 SSL.',
    402,
    'wallet.insufficient_balance',
    { balance: '15.00', required: '20.00', balanceMicro: '15000000', requiredMicro: '20000000' },
  );

  it('should say the English of the server when it had the values to', () => {
    expect(message(shortfall, 'en')).toBe(shortfall.message);
  });

  it("should translate by the code with the body's amounts in the reader's digits", () => {
    expect(message(shortfall, 'fa')).toBe(
      'موجودی کافی نیست. به ۲۰٫۰۰ SSL نیاز دارید اما ۱۵٫۰۰ SSL دارید.',
    );
    expect(message(shortfall, 'ru')).toBe(
      'Недостаточно средств. Нужно 20,00 SSL, а на балансе 15,00 SSL.',
    );
    expect(message(shortfall, 'zh')).toBe('余额不足。需要 20.00 SSL，当前余额 15.00 SSL。');
  });

  it('should give the wait of a rate limit from Retry-After in minutes', () => {
    const limited = new ApiError('Too many requests.', 429, 'common.rate_limited', {
      retryAfterSeconds: 150,
    });
    expect(message(limited, 'en')).toBe('Too many requests. Please try again in 3 minutes.');
    expect(message(limited, 'ru')).toBe('Слишком много запросов. Попробуйте снова через 3 минуты.');
  });

  it("should fall back to the server's message for a code it does not know", () => {
    const newer = new ApiError('Something new happened', 409, 'wallet.something_new');
    expect(message(newer, 'fa')).toBe('Something new happened');
  });

  it('should say a network error in the reader’s language', () => {
    const offline = new ApiError('Network error. Please check your connection.', 0);
    expect(message(offline, 'zh')).toBe('网络错误，请检查网络连接。');
  });

  it('should give the fallback for what is not an API error', () => {
    expect(message(new TypeError('x is undefined'), 'fa', 'ناموفق')).toBe('ناموفق');
  });
});
