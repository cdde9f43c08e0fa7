import { NODES_ROUTES, type UpdateServerRequest, type UpdateServerResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** Node Configuration: renames a server or sets its country and location. */
export function updateServer(
  ownerUuid: string,
  serverId: string,
  changes: UpdateServerRequest,
): Promise<UpdateServerResponse> {
  return api.patch<UpdateServerResponse>(NODES_ROUTES.server(ownerUuid, serverId), changes, {
    fallbackMessage: 'Failed to save the server settings',
  });
}
