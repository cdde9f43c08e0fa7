import { AUTH_ROUTES, type AuthResponse, type LoginRequest } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function login(body: LoginRequest): Promise<AuthResponse> {
  return api.post<AuthResponse>(AUTH_ROUTES.login, body, { fallbackMessage: 'Login failed' });
}
