import { AUTH_ROUTES, type ProfileResponse, type UserType } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function getProfile(uuid: string, userType: UserType): Promise<ProfileResponse> {
  return api.get<ProfileResponse>(
    `${AUTH_ROUTES.profile(uuid)}?userType=${encodeURIComponent(userType)}`,
    {
      fallbackMessage: 'Failed to fetch profile',
    },
  );
}
