import { HttpStatus } from '@nestjs/common';
import type { ApiErrorCode, ApiErrorDomain } from '@scn/proto';

/** What went wrong, independent of transport; the global filter maps it to an HTTP status. */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payment_required'
  | 'gone'
  | 'unprocessable'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable';

export const HTTP_STATUS_BY_KIND: Record<ErrorKind, HttpStatus> = {
  invalid: HttpStatus.BAD_REQUEST,
  unauthenticated: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  not_found: HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  payment_required: HttpStatus.PAYMENT_REQUIRED,
  gone: HttpStatus.GONE,
  unprocessable: HttpStatus.UNPROCESSABLE_ENTITY,
  too_large: HttpStatus.PAYLOAD_TOO_LARGE,
  rate_limited: HttpStatus.TOO_MANY_REQUESTS,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
};

/**
 * Every code of a domain's exception with its kind. Each subclass of DomainException exposes its
 * table as `static readonly kinds` and carries its `code`, so test/e2e/error-statuses.e2e-spec.ts
 * can send every code through the built server and a new code cannot go untested.
 */
export type ErrorKinds<Code extends string> = Readonly<Record<Code, ErrorKind>>;

/** The kinds of a table of errors that also hold their messages. */
export function kindsOf<Code extends string>(
  errors: Readonly<Record<Code, { kind: ErrorKind }>>,
): ErrorKinds<Code> {
  return Object.fromEntries(
    Object.entries<{ kind: ErrorKind }>(errors).map(([code, { kind }]) => [code, kind]),
  ) as Record<Code, ErrorKind>;
}

/**
 * Base of every domain's exception: a kind for the status, and the user-facing message.
 *
 * Subclasses call super() once, as the constructor's first statement: tsc (the build) assigns
 * parameter properties before a super() that is nested in a branch, which throws at run time,
 * while swc (jest's unit specs) assigns them after it. ESLint refuses nested super().
 */
export class DomainException extends Error {
  /**
   * The first part of the body's `code` (`wallet` of `wallet.insufficient_balance`): each
   * subclass names its domain; API_ERROR_CODES of @scn/proto lists every code.
   */
  static readonly domain: ApiErrorDomain = 'common';

  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly retryAfterSeconds?: number,
    /** Extra fields of the error body, e.g. a 402's balance and required amount. */
    readonly details?: Record<string, string | number | boolean>,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /**
   * The body's `code`: `<domain>.<code>` of a subclass, or the generic `common.<kind>` of a bare
   * DomainException (a request that does not validate is `common.invalid`).
   */
  get errorCode(): ApiErrorCode {
    const { code } = this as { code?: unknown };
    const { domain } = this.constructor as typeof DomainException;
    return (typeof code === 'string' ? `${domain}.${code}` : `common.${this.kind}`) as ApiErrorCode;
  }
}

const KIND_BY_STATUS = new Map<number, ErrorKind>(
  Object.entries(HTTP_STATUS_BY_KIND).map(([kind, status]) => [status, kind as ErrorKind]),
);

/** The generic code of a failure that is no DomainException, from its HTTP status. */
export function genericErrorCode(status: number): ApiErrorCode {
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) return 'common.unsupported_encoding';
  const kind = KIND_BY_STATUS.get(status);
  if (kind) return `common.${kind}`;
  return status >= 500 ? 'common.internal' : 'common.invalid';
}
