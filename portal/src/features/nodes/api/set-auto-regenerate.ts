import { REACHABILITY_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * Automatic port regeneration when the server becomes blocked somewhere: off (null) or at most
 * once per one of AUTO_REGENERATION_INTERVALS_S.
 */
export function setAutoRegenerate(
  ownerUuid: string,
  serverId: string,
  intervalS: number | null,
): Promise<MessageResponse> {
  return api.put<MessageResponse>(
    REACHABILITY_ROUTES.autoRegenerate(ownerUuid, serverId),
    { intervalS },
    { fallbackMessage: 'Failed to save automatic port regeneration' },
  );
}
