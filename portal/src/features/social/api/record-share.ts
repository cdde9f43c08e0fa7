import {
  type RecordShareRequest,
  type RecordShareResponse,
  SOCIAL_MESSAGES,
  SOCIAL_ROUTES,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * POST /api/social/record-share (docs/product/calls.md#market-and-account-calls): the server checks the URL and the limits and
 * computes the reward from its own clock in the browser's time zone; nothing is paid yet.
 */
export function recordShare(body: RecordShareRequest): Promise<RecordShareResponse> {
  return api.post<RecordShareResponse>(SOCIAL_ROUTES.recordShare, body, {
    fallbackMessage: SOCIAL_MESSAGES.validateFailed,
  });
}
