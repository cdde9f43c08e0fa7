import { REACHABILITY_ROUTES, probeEnrollmentTokenResponseSchema } from '@scn/proto';
import { api } from '../../../lib/api-client';

export type ProbeEnrollment = ReturnType<typeof probeEnrollmentTokenResponseSchema.parse>;

/** A one-time token for a new vantage point and the one line that runs it (`command`). */
export async function createProbeToken(ownerUuid: string, name: string): Promise<ProbeEnrollment> {
  const body = await api.post<unknown>(
    REACHABILITY_ROUTES.probeTokens(ownerUuid),
    { name },
    { fallbackMessage: 'Failed to create the vantage point token' },
  );
  return probeEnrollmentTokenResponseSchema.parse(body);
}
