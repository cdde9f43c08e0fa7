import { AUTH_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function logoutRequest(): Promise<MessageResponse> {
  return api.post<MessageResponse>(AUTH_ROUTES.logout);
}
