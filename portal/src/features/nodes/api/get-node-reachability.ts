import {
  REACHABILITY_ROUTES,
  nodeReachabilityResponseSchema,
  type NodeReachabilityResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/** The operator's servers: where each is blocked, and its automatic regeneration setting. */
export async function getNodeReachability(
  ownerUuid: string,
  signal?: AbortSignal,
): Promise<NodeReachabilityResponse> {
  const body = await api.get<unknown>(REACHABILITY_ROUTES.nodeServers(ownerUuid), {
    signal,
    fallbackMessage: 'Failed to load reachability',
  });
  return nodeReachabilityResponseSchema.parse(body);
}
