import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

function withCode(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ['an administrator shutdown (57P01)', withCode('57P01', 'terminating connection')],
    ['a crash shutdown (57P02)', withCode('57P02')],
    ['a database starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', withCode('08006')],
    [
      'a statement timeout (57014)',
      withCode('57014', 'canceling statement due to statement timeout'),
    ],
    ['a lock timeout (55P03)', withCode('55P03')],
    ['too many connections (53300)', withCode('53300')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['an exhausted pool', new Error('timeout exceeded when trying to connect')],
    ['a query timeout', new Error('Query read timeout')],
    [
      'both loopback addresses refused',
      Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {
        code: 'ECONNREFUSED',
      }),
    ],
    ['a query that lost its connection', new QueryFailedError('SELECT 1', [], withCode('57P01'))],
    ['a query read timeout', new QueryFailedError('SELECT 1', [], new Error('Query read timeout'))],
  ])('should be true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], withCode('23505'))],
    ['a check violation', new QueryFailedError('INSERT', [], withCode('23514'))],
    ['a serialization failure', new QueryFailedError('UPDATE', [], withCode('40001'))],
    ['a syntax error', new QueryFailedError('SELEC', [], withCode('42601'))],
    ['a raised exception', withCode('P0001', 'insufficient balance')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['a file not found', withCode('ENOENT')],
    ['nothing', undefined],
  ])('should be false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
