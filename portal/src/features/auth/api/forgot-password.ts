import { AUTH_ROUTES, type ForgotPasswordRequest, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';
import { currentLocale } from '../../../lib/i18n/i18n';

export function forgotPassword(body: ForgotPasswordRequest): Promise<MessageResponse> {
  // The mail's language when the account has none saved: the one this page shows.
  return api.post<MessageResponse>(AUTH_ROUTES.forgotPassword, {
    ...body,
    locale: body.locale ?? currentLocale(),
  });
}
