import { NODES_ROUTES, type NodeTransport, type UpdateServerResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** Node Configuration: the transport an agent node serves. */
export function changeTransport(
  ownerUuid: string,
  serverId: string,
  transport: NodeTransport,
): Promise<UpdateServerResponse> {
  return api.patch<UpdateServerResponse>(
    NODES_ROUTES.transport(ownerUuid, serverId),
    { transport },
    { fallbackMessage: 'Failed to change the transport' },
  );
}

/** Node Configuration: the emergency port regeneration (the owner confirmed it). */
export function regeneratePort(ownerUuid: string, serverId: string): Promise<UpdateServerResponse> {
  return api.post<UpdateServerResponse>(
    NODES_ROUTES.regeneratePort(ownerUuid, serverId),
    { confirm: true },
    { fallbackMessage: 'Failed to regenerate the port' },
  );
}
