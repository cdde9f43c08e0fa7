import { REACHABILITY_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** Deletes a vantage point: it is refused from its next call on. */
export function deleteProbe(ownerUuid: string, probeId: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(REACHABILITY_ROUTES.probe(ownerUuid, probeId), {
    fallbackMessage: 'Failed to delete the vantage point',
  });
}
