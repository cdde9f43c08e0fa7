import type {
  NodeServerDetails,
  NodeTransport,
  UpdateServerRequest,
  UpdateServerResponse,
} from '@scn/proto';
import { ApiError } from '../../lib/api-client';
import { deleteServer } from './api/delete-server';
import { updateListedServers } from './api/get-servers';
import { changeTransport, regeneratePort } from './api/inbound-plan';
import { updateServer } from './api/update-server';

/**
 * Errors of the calls below: the control plane's message, or an empty one for a failure without
 * it (the dialog then shows its own words for it).
 */
function failure(error: unknown): Error {
  return new Error(error instanceof ApiError ? error.message : '');
}

/** Deletes a server and drops it from the list; rejects with the server's message. */
export async function removeServer(ownerUuid: string, serverId: string): Promise<void> {
  try {
    await deleteServer(ownerUuid, serverId);
  } catch (error) {
    throw failure(error);
  }
  updateListedServers(ownerUuid, (servers) => servers.filter((server) => server.id !== serverId));
}

/**
 * Node Configuration: saves the changed settings and shows them in the list at once (the
 * realtime event refetches too). Resolves with the server as saved; rejects with the server's
 * message (e.g. the field that was refused).
 */
export async function saveServerSettings(
  ownerUuid: string,
  serverId: string,
  changes: UpdateServerRequest,
): Promise<NodeServerDetails> {
  let saved: NodeServerDetails;
  try {
    ({ server: saved } = await updateServer(ownerUuid, serverId, changes));
  } catch (error) {
    throw failure(error);
  }
  updateListedServers(ownerUuid, (servers) =>
    servers.map((server) =>
      server.id === serverId
        ? { ...server, name: saved.name, country: saved.country, location: saved.location }
        : server,
    ),
  );
  return saved;
}

/**
 * Node Configuration: a new transport, or an emergency port regeneration. The
 * dashboard's row shows the change pending until the node reports serving it. Throws an Error
 * with the control plane's message.
 */
export async function changeServerInbound(
  ownerUuid: string,
  serverId: string,
  change: { transport: NodeTransport } | { regeneratePort: true },
): Promise<{ server: NodeServerDetails; message: string }> {
  let response: UpdateServerResponse;
  try {
    response =
      'transport' in change
        ? await changeTransport(ownerUuid, serverId, change.transport)
        : await regeneratePort(ownerUuid, serverId);
  } catch (error) {
    throw failure(error);
  }
  const { inboundPending } = response.server;
  updateListedServers(ownerUuid, (servers) =>
    servers.map((server) => (server.id === serverId ? { ...server, inboundPending } : server)),
  );
  return { server: response.server, message: response.message };
}
