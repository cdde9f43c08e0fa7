import {
  REACHABILITY_ROUTES,
  reachabilityReportResponseSchema,
  type ReachabilityReportRequest,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

export type ReachabilityReportResponse = ReturnType<typeof reachabilityReportResponseSchema.parse>;

/**
 * The client's own report of a server from their apps (docs/reachability.md), sent only after
 * their consent; the control plane tags it with the country and network of the request.
 */
export async function reportReachability(
  clientUuid: string,
  serverId: string,
  works: boolean,
): Promise<ReachabilityReportResponse> {
  const body: ReachabilityReportRequest = { serverId, works, consent: true };
  const answer = await api.post<unknown>(REACHABILITY_ROUTES.report(clientUuid), body, {
    fallbackMessage: 'Failed to send the report',
  });
  return reachabilityReportResponseSchema.parse(answer);
}
