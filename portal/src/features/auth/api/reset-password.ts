import { AUTH_ROUTES, type MessageResponse, type ResetPasswordRequest } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>(AUTH_ROUTES.resetPassword, body, {
    fallbackMessage: 'Failed to reset password',
  });
}
