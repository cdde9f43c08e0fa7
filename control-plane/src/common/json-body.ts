import type { ErrorResponse } from '@scn/proto';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { genericErrorCode } from './domain.exception';

/** spec: bodies over 100 kB are refused with 413. */
export const BODY_LIMIT = '100kb';

export const BODY_MESSAGES = {
  tooLarge: 'Request body too large (limit 100 kB)',
  malformed: 'Malformed JSON in request body',
  nul: 'Text in the request body must not contain NUL characters',
  surrogate: 'Text in the request body must be valid Unicode (no unpaired surrogates)',
  unsupportedEncoding: 'Unsupported request body encoding',
  badEncoding: 'Request body does not match its Content-Encoding',
  unreadable: 'Request body could not be read',
} as const;

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, and refuses a `\ud800` escape that is not
 * half of a pair in jsonb (JSON.stringify writes a lone surrogate as that escape): refuse both at
 * the door (400), in keys as in values, so no handler can turn them into a 500.
 */
/** A UTF-16 surrogate that is not half of a pair (in `u` mode a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

function refuseUnstorableText(key: string, value: unknown): unknown {
  for (const text of typeof value === 'string' ? [key, value] : [key]) {
    if (text.includes('\u0000')) throw new Error(BODY_MESSAGES.nul);
    if (LONE_SURROGATE.test(text)) throw new Error(BODY_MESSAGES.surrogate);
  }
  return value;
}

/** The JSON body parser of the REST API: 100 kB, gzip/deflate/br accepted, no unstorable text. */
export function jsonBody(): RequestHandler {
  return express.json({ limit: BODY_LIMIT, reviver: refuseUnstorableText });
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/**
 * What a failure of the body parser is answered with: always a 4xx, never the request's own
 * words; null for an error that is not the parser's.
 */
export function bodyErrorResponse(
  error: unknown,
  contentEncoding: string | undefined,
): { status: number; message: string } | null {
  if (!error || typeof error !== 'object') return null;
  const { type, status, message } = error as BodyParserError;
  if (type === 'entity.too.large') return { status: 413, message: BODY_MESSAGES.tooLarge };
  if (type === 'entity.parse.failed') {
    const own = message === BODY_MESSAGES.nul || message === BODY_MESSAGES.surrogate;
    return { status: 400, message: own ? message : BODY_MESSAGES.malformed };
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { status: 415, message: BODY_MESSAGES.unsupportedEncoding };
  }
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  // zlib's and brotli's errors for a body that is not what its Content-Encoding says:
  // body-parser marks them 400 but gives them no type (they were answered 500).
  const encoded = (contentEncoding ?? 'identity').trim().toLowerCase() !== 'identity';
  if (encoded && type === undefined) return { status: 400, message: BODY_MESSAGES.badEncoding };
  // Any other read failure (aborted, length mismatch): body-parser's own 4xx, our words.
  return { status, message: BODY_MESSAGES.unreadable };
}

/** Runs right after the parser: its failures get the API's error shape, never a 500. */
export function bodyParserErrors(
  error: unknown,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  const answer = bodyErrorResponse(error, req.headers['content-encoding']);
  if (!answer) return next(error);
  const body: ErrorResponse = {
    success: false,
    message: answer.message,
    code: genericErrorCode(answer.status),
  };
  res.status(answer.status).json(body);
}
