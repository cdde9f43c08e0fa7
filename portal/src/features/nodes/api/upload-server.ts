import { NODES_ROUTES, type MessageResponse, type NodeServer } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function uploadServer(
  ownerUuid: string,
  vlessString: string,
  name: string,
): Promise<MessageResponse & { server: NodeServer }> {
  return api.post(
    NODES_ROUTES.uploadServer,
    { uuid: ownerUuid, serverInfo: { vlessString, ...(name.trim() ? { name: name.trim() } : {}) } },
    { fallbackMessage: 'Failed to upload server' },
  );
}
