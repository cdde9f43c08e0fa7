import { AUTH_ROUTES, type GenerateCodeRequest, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function generateCode(body: GenerateCodeRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>(AUTH_ROUTES.generateCode, body, {
    fallbackMessage: 'Failed to send verification code',
  });
}
