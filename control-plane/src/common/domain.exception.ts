import { HttpStatus } from '@nestjs/common';

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

/** Base of every domain's exception: a kind for the status, and the user-facing message. */
export class DomainException extends Error {
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
}
