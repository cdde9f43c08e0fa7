import { AUTH_ROUTES, type MessageResponse, type TermsAcceptRequest } from '@scn/proto';
import { api } from '../../../lib/api-client';

export function acceptTerms(record: TermsAcceptRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>(AUTH_ROUTES.termsAccept, record, {
    fallbackMessage: 'Failed to record terms acceptance',
  });
}
