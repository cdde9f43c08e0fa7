/**
 * Whether an error means "the database cannot be reached or does not answer in time" (a 503 /
 * UNAVAILABLE: retry later) rather than a fault of the request or of the code (which keeps its
 * own handling). Only connection-level failures count; a constraint violation, a
 * serialization failure or a syntax error never does.
 */

/** Node socket errors of a connection to the database. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * SQLSTATEs: class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown,
 * cannot connect now: a restart in progress), 53300 (too many connections), and the two our own
 * timeouts raise: 57014 (query_canceled, by statement_timeout: nothing in the code cancels
 * otherwise) and 55P03 (lock_not_available, by lock_timeout: no NOWAIT in the code).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '55P03']);

/** node-postgres and pg-pool raise these as plain Errors without a code. */
const PG_MESSAGES = [
  /^Connection terminated/, // unexpectedly / due to connection timeout
  /^timeout exceeded when trying to connect/, // pool: no free connection within the limit
  /^Query read timeout/, // query_timeout
  /not queryable/, // a client whose connection already failed
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as ErrorLike;
  // TypeORM's QueryFailedError wraps the driver's error; an AggregateError (happy eyeballs:
  // ::1 and 127.0.0.1 both refused) holds one per address.
  if (e.driverError && isDatabaseUnavailable(e.driverError, depth + 1)) return true;
  if (e.cause && isDatabaseUnavailable(e.cause, depth + 1)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  if (typeof e.code === 'string') {
    if (SOCKET_CODES.has(e.code) || SQLSTATES.has(e.code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return typeof e.message === 'string' && PG_MESSAGES.some((re) => re.test(e.message as string));
}

/** Seconds a client is told to wait (Retry-After) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is temporarily unavailable (database); retry shortly';
