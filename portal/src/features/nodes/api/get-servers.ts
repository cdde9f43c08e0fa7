import { NODES_ROUTES, type NodeServersResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function getServers(ownerUuid: string, signal?: AbortSignal): Promise<NodeServersResponse> {
  return api.get<NodeServersResponse>(NODES_ROUTES.servers(ownerUuid), {
    signal,
    fallbackMessage: 'Failed to load servers',
  });
}
