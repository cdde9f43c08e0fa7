import { AUTH_ROUTES, type GenerateCodeRequest, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';
import { currentLocale } from '../../../lib/i18n/i18n';

export function generateCode(body: GenerateCodeRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>(
    AUTH_ROUTES.generateCode,
    // The mail's language when no account says its own: the one this page shows.
    { ...body, locale: body.locale ?? currentLocale() },
    {
      fallbackMessage: 'Failed to send verification code',
    },
  );
}
