import { isApiErrorCode, type ApiErrorCode, type ApiErrorDomain } from '@scn/proto';
import { formatMicroSsl } from './money';
import type { TFunction } from 'i18next';
import { useCallback, useEffect } from 'react';
import { ApiError } from './api-error';
import { currentLocale, i18n, useT } from './i18n/i18n';
import { formatDate } from './i18n/format';
import type { Locale } from './i18n/locale';

/** A key of `errors:api`, one per code (api-error-message.spec checks both lists agree). */
type ApiErrorKey = `api.${ApiErrorCode}`;

const NETWORK_ERROR = 'Network error. Please check your connection.';

/**
 * What a person reads when an API call failed, in their language: the `errors` catalogue's
 * message of the body's code (`errors:api.wallet.insufficient_balance`, docs/api.md "Error
 * codes"), never a translation of the server's English. Amounts and dates of the body are its
 * ICU values in the reader's digits and calendar: `balanceMicro` is `{balance}` as "15.00 SSL",
 * `availableAgainAt` is `{availableAgainAt}` as a date, Retry-After is `{minutes}`.
 *
 * Falls back to the server's message for a code this portal does not know (a newer server), to
 * `fallback` for an answer without a code or anything that is not an ApiError (then to the
 * error's own message), and answers `errors:network` when the server could not be reached
 * (status 0).
 */
export function apiErrorMessage(
  error: unknown,
  t: TFunction<'errors'>,
  locale: Locale,
  fallback?: string,
): string {
  // Until the catalogue has arrived, the English the error carries.
  const loaded = i18n.exists('errors:network', { lng: locale });
  const own = error instanceof Error && error.message ? error.message : undefined;
  if (!(error instanceof ApiError)) {
    return fallback ?? own ?? (loaded ? t('network') : NETWORK_ERROR);
  }
  if (error.status === 0 && error.code === undefined) return loaded ? t('network') : error.message;
  if (loaded && isApiErrorCode(error.code)) {
    const [domain, name] = error.code.split('.') as [ApiErrorDomain, string];
    return t(`api.${domain}.${name}` as ApiErrorKey, valuesOf(error.details, locale));
  }
  // A code this portal does not know: the server's words. No code at all (a proxy's page, not
  // the API's body): the caller's own fallback first.
  const server = error.code === undefined ? (fallback ?? own) : (own ?? fallback);
  return server ?? (loaded ? t('api.common.internal') : NETWORK_ERROR);
}

/** The ICU values of a body's fields, formatted for the reader. */
function valuesOf(details: Readonly<Record<string, unknown>>, locale: Locale) {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(details)) {
    if (typeof value === 'number' || typeof value === 'boolean') values[name] = Number(value);
    if (typeof value !== 'string') continue;
    if (name.endsWith('Micro') && /^\d+$/.test(value)) {
      // `balanceMicro` gives `{balance}`: the exact ledger amount, in cents as the API's text.
      values[name.slice(0, -'Micro'.length)] = formatMicroSsl(value, locale, { decimals: 'cents' });
    } else if (name.endsWith('At') && !Number.isNaN(Date.parse(value))) {
      values[name] = formatDate(value, locale, { dateStyle: 'medium', timeStyle: 'short' });
    } else if (!(name in values)) {
      values[name] = value;
    }
  }
  const retryAfter = Number(details.retryAfterSeconds);
  values.minutes = retryAfter > 0 ? Math.ceil(retryAfter / 60) : 1;
  return values;
}

/**
 * `apiErrorMessage` outside React (a store's action): in the language shown now. The `errors`
 * catalogue loads with the first use; until it has arrived the server's own message is shown.
 */
export function translateApiError(error: unknown, fallback?: string): string {
  const locale = currentLocale();
  if (!i18n.hasLoadedNamespace('errors')) void i18n.loadNamespaces('errors');
  return apiErrorMessage(error, i18n.getFixedT(locale, 'errors'), locale, fallback);
}

/**
 * In a component: `const errorMessage = useApiErrorMessage();` then
 * `errorMessage(error, t('...failed'))`. Loads the `errors` catalogue when the component mounts,
 * without suspending it (an error shows only after a call, long after the chunk has arrived).
 */
export function useApiErrorMessage(): (error: unknown, fallback?: string) => string {
  const { locale } = useT();
  useEffect(() => {
    void i18n.loadNamespaces('errors');
  }, []);
  return useCallback(
    (error: unknown, fallback?: string) =>
      apiErrorMessage(error, i18n.getFixedT(locale, 'errors'), locale, fallback),
    [locale],
  );
}
