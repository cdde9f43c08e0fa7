import { REACHABILITY_ROUTES, vantagePointsResponseSchema, type VantagePoint } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** The account's vantage points: where each is, when it was last seen, its tests of the hour. */
export async function getProbes(ownerUuid: string, signal?: AbortSignal): Promise<VantagePoint[]> {
  const body = await api.get<unknown>(REACHABILITY_ROUTES.probes(ownerUuid), {
    signal,
    fallbackMessage: 'Failed to load vantage points',
  });
  return vantagePointsResponseSchema.parse(body).probes;
}
