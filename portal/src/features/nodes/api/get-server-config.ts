import { NODES_ROUTES, type NodeServerDetailsResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** Node Configuration: one of the operator's servers with everything the control plane knows. */
export function getServerConfig(
  ownerUuid: string,
  serverId: string,
  signal?: AbortSignal,
): Promise<NodeServerDetailsResponse> {
  return api.get<NodeServerDetailsResponse>(NODES_ROUTES.server(ownerUuid, serverId), {
    signal,
    fallbackMessage: 'Failed to load the server configuration',
  });
}
