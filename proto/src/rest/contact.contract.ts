import type { z } from 'zod';
import { emailSchema, requestBody, requiredString } from './common.contract';

export const CONTACT_ROUTES = { send: '/api/contact' } as const;

export const CONTACT_MESSAGES = {
  sent: 'Your message has been sent successfully! We will get back to you soon.',
  subjectRequired: 'Subject is required',
  messageRequired: 'Message is required',
} as const;

export const contactRequestSchema = requestBody({
  email: emailSchema(),
  subject: requiredString('subject', CONTACT_MESSAGES.subjectRequired)
    .trim()
    .min(1, CONTACT_MESSAGES.subjectRequired)
    .max(200, 'Subject must be at most 200 characters long'),
  message: requiredString('message', CONTACT_MESSAGES.messageRequired)
    .trim()
    .min(1, CONTACT_MESSAGES.messageRequired)
    .max(5000, 'Message must be at most 5000 characters long'),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;
