import { AUTH_ROUTES, type Locale, type LocaleResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** Saves the account's language (docs/i18n.md). */
export function setLocale(uuid: string, locale: Locale): Promise<LocaleResponse> {
  return api.put<LocaleResponse>(
    AUTH_ROUTES.locale(uuid),
    { locale },
    {
      fallbackMessage: 'Failed to save the language',
    },
  );
}
