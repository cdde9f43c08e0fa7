import * as grpc from '@grpc/grpc-js';
import type { Logger } from '@nestjs/common';
import { DomainException } from '../common/domain.exception';
import { enrollRequestSchema } from './agent-messages';
import { GrpcFailure, parseRequest, tolerantDeserializers, toServiceError } from './grpc-errors';

const logger = { warn: jest.fn(), error: jest.fn() } as unknown as Logger;

describe('toServiceError', () => {
  it("should answer a domain refusal with its kind's status and message", () => {
    expect(toServiceError(new DomainException('forbidden', 'No'), logger)).toEqual({
      code: grpc.status.PERMISSION_DENIED,
      details: 'No',
    });
    expect(toServiceError(new GrpcFailure(grpc.status.NOT_FOUND, 'Gone'), logger)).toEqual({
      code: grpc.status.NOT_FOUND,
      details: 'Gone',
    });
  });

  it('should answer INTERNAL without the error text when the error is a bug', () => {
    expect(toServiceError(new Error('secret detail'), logger)).toEqual({
      code: grpc.status.INTERNAL,
      details: 'Internal error',
    });
  });
});

describe('parseRequest', () => {
  it('should refuse with INVALID_ARGUMENT naming the field when the message does not validate', () => {
    expect(() => parseRequest(enrollRequestSchema, { enrollmentToken: 'x' })).toThrow(
      expect.objectContaining({ code: grpc.status.INVALID_ARGUMENT }),
    );
  });

  it('should refuse with INVALID_ARGUMENT when the bytes did not decode at all', () => {
    const service = tolerantDeserializers({
      Enroll: {
        path: '/x',
        requestStream: false,
        responseStream: false,
        requestSerialize: (value: unknown) => Buffer.from(String(value)),
        requestDeserialize: () => {
          throw new Error('bad wire type');
        },
        responseSerialize: (value: unknown) => Buffer.from(String(value)),
        responseDeserialize: (bytes: Buffer) => bytes,
      },
    });
    const decoded = service.Enroll!.requestDeserialize(Buffer.from([0xff]));
    expect(() => parseRequest(enrollRequestSchema, decoded)).toThrow(
      expect.objectContaining({
        code: grpc.status.INVALID_ARGUMENT,
        message: 'Malformed message: bad wire type',
      }),
    );
  });
});
