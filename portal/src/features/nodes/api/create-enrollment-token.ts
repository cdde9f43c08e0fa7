import { NODES_ROUTES, type EnrollmentTokenResponse, type VpsTierId } from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * docs/product/screens.md#dashboards-and-information-pages setup wizard: a one-time token bound to the tier and the name the server will
 * enroll with, and the install command.
 */
export function createEnrollmentToken(
  tier: VpsTierId,
  name?: string,
): Promise<EnrollmentTokenResponse> {
  return api.post<EnrollmentTokenResponse>(
    NODES_ROUTES.enrollmentTokens,
    name ? { tier, name } : { tier },
    { fallbackMessage: 'Failed to generate the setup script' },
  );
}
