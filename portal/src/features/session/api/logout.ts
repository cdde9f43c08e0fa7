import { AUTH_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** The token is passed in: the local session (and the stored token) is already cleared. */
export function logoutRequest(token: string | null): Promise<MessageResponse> {
  return api.post<MessageResponse>(AUTH_ROUTES.logout, undefined, { token });
}
