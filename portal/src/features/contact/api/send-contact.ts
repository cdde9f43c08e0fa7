import { CONTACT_ROUTES, type ContactRequest, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';
import { SUPPORT_EMAIL } from '../../../config/env';

/** spec 02 §8: shown when the server gives no message of its own. */
export const CONTACT_FAILED_MESSAGE = `Failed to send your message. Please try again or email ${SUPPORT_EMAIL}.`;

/** spec 02 §7: POST /api/contact with email, subject and message. Rejects with ApiError. */
export function sendContact(request: ContactRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>(CONTACT_ROUTES.send, request, {
    fallbackMessage: CONTACT_FAILED_MESSAGE,
  });
}
