import { AUTH_ROUTES, type VerifySessionResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function verifySession(): Promise<VerifySessionResponse> {
  return api.get<VerifySessionResponse>(AUTH_ROUTES.verifySession);
}
