import { CONTACT_ROUTES, type ContactRequest, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';
import { SUPPORT_EMAIL } from '../../../config/env';

/** docs/product/messages.md#dashboard-messages: shown when the server gives no message of its own. */
export const CONTACT_FAILED_MESSAGE = `Failed to send your message. Please try again or email ${SUPPORT_EMAIL}.`;

/** docs/product/calls.md#dashboard-calls: POST /api/contact with email, subject and message. Rejects with ApiError. */
export function sendContact(request: ContactRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>(CONTACT_ROUTES.send, request, {
    fallbackMessage: CONTACT_FAILED_MESSAGE,
  });
}
