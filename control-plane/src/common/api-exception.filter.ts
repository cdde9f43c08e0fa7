import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { ApiErrorCode, ErrorResponse } from '@scn/proto';
import type { Request, Response } from 'express';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from './database-unavailable';
import { DomainException, genericErrorCode, HTTP_STATUS_BY_KIND } from './domain.exception';
import { recordUnavailable, requestSummary } from './request-log';

/**
 * One error shape for every failure: `{ success: false, message, code }` with the right status
 * (and the fields the code names); `code` is what clients translate (docs/api.md "Error codes").
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const { status, message, code, retryAfter, details } = this.describe(exception);
    if (status === HttpStatus.SERVICE_UNAVAILABLE) {
      // An outage (database, chain), not a bug: the access log's one line per request says so at
      // warn, with this reason and without the stack (docs/reliability.md, "Errors are classified").
      recordUnavailable(
        response,
        errorMessage(exception),
        isDatabaseUnavailable(exception) ? 'database' : 'other',
      );
    } else if (status >= 500) {
      this.logger.error(
        {
          req: requestSummary(http.getRequest<Request>()),
          err: exception instanceof Error ? exception : new Error(String(exception)),
        },
        'Unhandled error',
      );
    }
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    const body: ErrorResponse = { ...details, success: false, message, code };
    response.status(status).json(body);
  }

  private describe(exception: unknown): {
    status: number;
    message: string;
    code: ApiErrorCode;
    retryAfter?: number;
    details?: Record<string, string | number | boolean>;
  } {
    if (exception instanceof DomainException) {
      return {
        status: HTTP_STATUS_BY_KIND[exception.kind],
        message: exception.message,
        code: exception.errorCode,
        retryAfter: exception.retryAfterSeconds,
        details: exception.details,
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = genericErrorCode(status);
      if (status === HttpStatus.NOT_FOUND) return { status, message: 'Not found', code };
      return { status, message: messageOf(exception.getResponse()) ?? exception.message, code };
    }
    if (isDatabaseUnavailable(exception)) {
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        message: DATABASE_UNAVAILABLE_MESSAGE,
        code: 'common.unavailable',
        retryAfter: DATABASE_RETRY_AFTER_SECONDS,
      };
    }
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      message: 'Internal server error',
      code: 'common.internal',
    };
  }
}

function errorMessage(exception: unknown): string {
  return exception instanceof Error ? exception.message : String(exception);
}

function messageOf(response: unknown): string | undefined {
  if (typeof response === 'string') return response;
  if (response && typeof response === 'object' && 'message' in response) {
    const { message } = response as { message: unknown };
    if (typeof message === 'string') return message;
    if (Array.isArray(message) && typeof message[0] === 'string') return message[0];
  }
  return undefined;
}
