import { HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { pino } from 'pino';
import { ApiExceptionFilter } from './api-exception.filter';
import { WalletException } from '../wallet/wallet.exception';
import { DomainException } from './domain.exception';
import { requestLog } from './request-log';

/** The reason the access log writes for a response the filter answered (its `reason`). */
function loggedReason(response: object): string | undefined {
  const lines: Array<{ reason?: string }> = [];
  const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
  const request = { method: 'GET', url: '/x', originalUrl: '/x' } as Request;
  requestLog(pino({ level: 'warn' }, stream))(request, response as Response, () => undefined);
  (response as EventEmitter).emit('finish');
  return lines[0]?.reason;
}

function hostFor(url: string) {
  const response = Object.assign(new EventEmitter(), {
    writableFinished: true,
    statusCode: 0,
    body: undefined as unknown,
    headers: new Map<string, string>(),
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      this.body = body;
      return this;
    },
    setHeader(name: string, value: string) {
      this.headers.set(name, value);
    },
  });
  const request = { id: 41, method: 'POST', url, originalUrl: url };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
  return { host, response };
}

describe('ApiExceptionFilter', () => {
  afterEach(() => jest.restoreAllMocks());

  it('should answer 500 without details and log the error with its request', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, response } = hostFor('/sub/s3cret/x?token=abc');
    const failure = new Error('database exploded');
    new ApiExceptionFilter().catch(failure, host);
    expect(response.statusCode).toBe(500);
    expect(response.body).toEqual({
      success: false,
      message: 'Internal server error',
      code: 'common.internal',
    });
    expect(logged).toHaveBeenCalledWith(
      { req: { id: 41, method: 'POST', path: '/sub/[redacted]/x' }, err: failure },
      'Unhandled error',
    );
  });

  it('should not log a refusal', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, response } = hostFor('/nothing');
    new ApiExceptionFilter().catch(new NotFoundException(), host);
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      success: false,
      message: 'Not found',
      code: 'common.not_found',
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('should answer 503 with Retry-After when the database refuses connections', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const failed = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, response } = hostFor('/api/wallet');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    new ApiExceptionFilter().catch(refused, host);
    expect(response.statusCode).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('5');
    expect(response.body).toEqual({
      success: false,
      message: 'The service is temporarily unavailable (database); retry shortly',
      code: 'common.unavailable',
    });
    // The access log's line of the request says why (request-log.spec), once, at warn.
    expect(warned).not.toHaveBeenCalled();
    expect(failed).not.toHaveBeenCalled();
    expect(loggedReason(response)).toBe('connect ECONNREFUSED 127.0.0.1:5432');
  });

  it('should not log an expected 503 of a domain or a probe, and record why', () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const failed = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const chain = hostFor('/api/solana/verify-deposit');
    new ApiExceptionFilter().catch(
      new DomainException('unavailable', 'The chain is down'),
      chain.host,
    );
    const probe = hostFor('/healthz');
    new ApiExceptionFilter().catch(
      new HttpException({ message: 'Database unreachable' }, HttpStatus.SERVICE_UNAVAILABLE),
      probe.host,
    );
    expect([chain.response.statusCode, probe.response.statusCode]).toEqual([503, 503]);
    expect([chain.response.body, probe.response.body]).toEqual([
      { success: false, message: 'The chain is down', code: 'common.unavailable' },
      { success: false, message: 'Database unreachable', code: 'common.unavailable' },
    ]);
    expect(warned).not.toHaveBeenCalled();
    expect(failed).not.toHaveBeenCalled();
    expect(loggedReason(chain.response)).toBe('The chain is down');
    expect(loggedReason(probe.response)).toBe('Database unreachable');
  });

  it('should answer a domain code namespaced by its domain, after the fields it names', () => {
    const { host, response } = hostFor('/api/wallet/x/purchase');
    const shortfall = { balanceMicro: 15_000_000n, requiredMicro: 20_000_000n };
    new ApiExceptionFilter().catch(new WalletException('insufficient_balance', shortfall), host);
    expect(response.statusCode).toBe(402);
    expect(response.body).toEqual({
      success: false,
      message: 'Insufficient balance. You need 20.00 SSL but have 15.00 SSL.',
      code: 'wallet.insufficient_balance',
      balance: '15.00',
      required: '20.00',
      balanceMicro: '15000000',
      requiredMicro: '20000000',
    });
  });

  it('should answer the generic code of its kind for a bare domain exception', () => {
    const { host, response } = hostFor('/api/x');
    new ApiExceptionFilter().catch(
      new DomainException('invalid', 'email must be a string', undefined, { field: 'email' }),
      host,
    );
    expect(response.body).toEqual({
      success: false,
      message: 'email must be a string',
      code: 'common.invalid',
      field: 'email',
    });
  });

  it('should answer the generic code of the status of any other HTTP error', () => {
    const { host, response } = hostFor('/api/x');
    new ApiExceptionFilter().catch(
      new HttpException('Slow down', HttpStatus.TOO_MANY_REQUESTS),
      host,
    );
    expect(response.body).toEqual({
      success: false,
      message: 'Slow down',
      code: 'common.rate_limited',
    });
  });
});
