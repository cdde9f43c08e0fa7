import { NODES_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function deleteServer(ownerUuid: string, serverId: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(NODES_ROUTES.server(ownerUuid, serverId), {
    fallbackMessage: 'Failed to delete server',
  });
}
