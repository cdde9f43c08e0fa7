import { AUTH_ROUTES, type AuthResponse, type RegisterRequest } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function register(body: RegisterRequest): Promise<AuthResponse> {
  return api.post<AuthResponse>(AUTH_ROUTES.register, body, {
    fallbackMessage: 'Registration failed',
  });
}
