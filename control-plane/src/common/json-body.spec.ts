import { BODY_MESSAGES, bodyErrorResponse } from './json-body';

describe('bodyErrorResponse', () => {
  const httpError = (status: number, fields: Record<string, unknown> = {}) =>
    Object.assign(new Error('inner words'), {
      status,
      statusCode: status,
      expose: true,
      ...fields,
    });

  it('should map the typed failures of body-parser to their statuses', () => {
    expect(bodyErrorResponse(httpError(413, { type: 'entity.too.large' }), undefined)).toEqual({
      status: 413,
      message: BODY_MESSAGES.tooLarge,
    });
    expect(bodyErrorResponse(httpError(400, { type: 'entity.parse.failed' }), undefined)).toEqual({
      status: 400,
      message: BODY_MESSAGES.malformed,
    });
    expect(bodyErrorResponse(httpError(415, { type: 'encoding.unsupported' }), 'x-bogus')).toEqual({
      status: 415,
      message: BODY_MESSAGES.unsupportedEncoding,
    });
  });

  it('should keep its own refusals of NUL and lone surrogates as the message', () => {
    const surrogate = Object.assign(httpError(400, { type: 'entity.parse.failed' }), {
      message: BODY_MESSAGES.surrogate,
    });
    expect(bodyErrorResponse(surrogate, undefined)?.message).toBe(BODY_MESSAGES.surrogate);
  });

  it('should answer 400 when an untyped read error comes with a Content-Encoding', () => {
    const zlib = httpError(400, { code: 'Z_DATA_ERROR', errno: -3 });
    expect(bodyErrorResponse(zlib, 'gzip')).toEqual({
      status: 400,
      message: BODY_MESSAGES.badEncoding,
    });
    expect(bodyErrorResponse(zlib, 'identity')).toEqual({
      status: 400,
      message: BODY_MESSAGES.unreadable,
    });
  });

  it('should leave errors that are not 4xx of the parser to the next handler', () => {
    expect(bodyErrorResponse(new Error('boom'), 'gzip')).toBeNull();
    expect(bodyErrorResponse(httpError(500), 'gzip')).toBeNull();
    expect(bodyErrorResponse('text', undefined)).toBeNull();
  });
});
