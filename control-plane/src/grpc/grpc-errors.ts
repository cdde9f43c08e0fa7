import * as grpc from '@grpc/grpc-js';
import type { Logger } from '@nestjs/common';
import type { z } from 'zod';
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from '../common/database-unavailable';
import { DomainException, type ErrorKind } from '../common/domain.exception';
import { describeIssue } from './agent-messages';

const STATUS_BY_KIND: Record<ErrorKind, grpc.status> = {
  invalid: grpc.status.INVALID_ARGUMENT,
  unauthenticated: grpc.status.UNAUTHENTICATED,
  forbidden: grpc.status.PERMISSION_DENIED,
  not_found: grpc.status.NOT_FOUND,
  conflict: grpc.status.ALREADY_EXISTS,
  payment_required: grpc.status.FAILED_PRECONDITION,
  gone: grpc.status.UNIMPLEMENTED,
  unprocessable: grpc.status.FAILED_PRECONDITION,
  too_large: grpc.status.RESOURCE_EXHAUSTED,
  rate_limited: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
};

export class GrpcFailure extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
  }
}

/** A request whose bytes are not a protobuf message of its type. */
class MalformedMessage {
  constructor(readonly reason: string) {}
}

/**
 * grpc-js answers INTERNAL when a request's bytes do not decode; the contract says a malformed
 * message is INVALID_ARGUMENT. Decoding failures become a MalformedMessage the handlers refuse.
 */
export function tolerantDeserializers(service: grpc.ServiceDefinition): grpc.ServiceDefinition {
  return Object.fromEntries(
    Object.entries(service).map(([name, method]) => [
      name,
      {
        ...method,
        requestDeserialize: (bytes: Buffer): unknown => {
          try {
            return method.requestDeserialize(bytes);
          } catch (error) {
            return new MalformedMessage(error instanceof Error ? error.message : String(error));
          }
        },
      },
    ]),
  ) as grpc.ServiceDefinition;
}

/** The request's fields, or INVALID_ARGUMENT when it is not a message of its type at all. */
export function parseRequest<T>(schema: z.ZodType<T>, request: unknown): T {
  if (request instanceof MalformedMessage)
    throw new GrpcFailure(grpc.status.INVALID_ARGUMENT, `Malformed message: ${request.reason}`);
  const parsed = schema.safeParse(request);
  if (!parsed.success)
    throw new GrpcFailure(grpc.status.INVALID_ARGUMENT, describeIssue(parsed.error));
  return parsed.data;
}

/** The status `error` is answered with (toServiceError's), without logging anything. */
export function statusOf(error: unknown): grpc.status {
  if (error instanceof GrpcFailure) return error.code;
  if (error instanceof DomainException) return STATUS_BY_KIND[error.kind];
  if (isDatabaseUnavailable(error)) return grpc.status.UNAVAILABLE;
  return grpc.status.INTERNAL;
}

export function toServiceError(error: unknown, logger: Logger): Partial<grpc.ServiceError> {
  if (error instanceof GrpcFailure) return { code: error.code, details: error.message };
  if (error instanceof DomainException)
    return { code: STATUS_BY_KIND[error.kind], details: error.message };
  if (isDatabaseUnavailable(error)) {
    // The agent retries UNAVAILABLE with backoff; an outage is not a bug (no stack).
    logger.warn(
      { err: { message: (error as Error).message } },
      'Agent call failed: database unavailable',
    );
    return { code: grpc.status.UNAVAILABLE, details: DATABASE_UNAVAILABLE_MESSAGE };
  }
  logger.error({ err: error }, 'Agent call failed');
  return { code: grpc.status.INTERNAL, details: 'Internal error' };
}
