import { z } from 'zod';

/**
 * Every failure of the REST API has this shape, plus the fields its code names (a 402's `balance`
 * and `required`...). `code` says what went wrong (`wallet.insufficient_balance`, API_ERROR_CODES
 * of error-codes.ts): a client shows its own translation of the code with those fields, and
 * `message`, the server's English text, only for a code it does not know.
 */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const messageResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const USER_TYPES = ['client', 'node'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** docs/product/input-rules.md#market-and-account-input: the simple x@y.z pattern. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A UUID in its text form: 8-4-4-4-12 hex digits, either case (RFC 9562 §4: input is
 * case-insensitive). Version and variant are not checked: every id we issue or store fits.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID from a client (a path parameter, a body field): any case in, the lower-case canonical
 * form out, which is how the database and every comparison spell it.
 */
export const uuidSchema = z.string().regex(UUID_PATTERN, 'must be a UUID').toLowerCase();

/** The canonical (lower-case) form of a UUID from a client; null when it is not one. */
export function canonicalUuid(value: unknown): string | null {
  const parsed = uuidSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** C0 and C1 control characters (newlines, tabs, escapes): never part of one-line text. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

type IssueLike = { input?: unknown; code?: string };

/** A required string field: one message when absent, another when it has the wrong type. */
export function requiredString(field: string, requiredMessage: string) {
  return z.string({
    error: (issue: IssueLike) =>
      issue.input === undefined || issue.input === null
        ? requiredMessage
        : `${field} must be a string`,
  });
}

export const userTypeSchema = z.enum(USER_TYPES, {
  error: (issue: IssueLike) =>
    issue.input === undefined ? 'userType is required' : 'userType must be "client" or "node"',
});

export function emailSchema(requiredMessage = 'Email is required') {
  return requiredString('email', requiredMessage)
    .trim()
    .min(1, requiredMessage)
    .max(254, 'Email must be at most 254 characters long')
    .regex(EMAIL_PATTERN, 'Please enter a valid email address')
    .toLowerCase();
}

/**
 * A request body schema: unknown fields are rejected (a typo must not be silently ignored),
 * and a body that is not a JSON object gets one clear message.
 */
export function requestBody<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape, {
    error: (issue: IssueLike & { keys?: string[] }) => {
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys ?? [];
        return `Unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`;
      }
      return 'Request body must be a JSON object';
    },
  });
}

/** The message of the first problem in a failed parse, as the API and the portal report it. */
export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  return issue.message;
}
