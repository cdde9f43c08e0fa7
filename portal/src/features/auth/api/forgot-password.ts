import { AUTH_ROUTES, type ForgotPasswordRequest, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function forgotPassword(body: ForgotPasswordRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>(AUTH_ROUTES.forgotPassword, body);
}
