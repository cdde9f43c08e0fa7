import {
  firstIssueMessage,
  MARKET_MAX_LIMIT,
  MARKET_MESSAGES,
  MARKET_PAGE_SIZE,
  markServerProcessingRequestSchema,
  marketServersQuerySchema,
} from '../index';

function messageOf(value: unknown): string | null {
  const result = marketServersQuerySchema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
}

describe('marketServersQuerySchema', () => {
  it('should default to page 1 of 20 in the default order when nothing is given', () => {
    expect(marketServersQuerySchema.parse({})).toEqual({ page: 1, limit: MARKET_PAGE_SIZE });
  });

  it('should read every filter when given as query strings', () => {
    expect(
      marketServersQuerySchema.parse({
        search: '  Frankfurt ',
        country: 'de',
        sort: 'ping',
        order: 'asc',
        page: '3',
        limit: '50',
        t: '1700000000',
      }),
    ).toEqual({
      search: 'Frankfurt',
      country: 'DE',
      sort: 'ping',
      order: 'asc',
      page: 3,
      limit: 50,
    });
  });

  it("should treat 'all' and empty values as absent", () => {
    expect(
      marketServersQuerySchema.parse({ country: 'all', search: ' ', page: '', limit: '' }),
    ).toEqual({
      page: 1,
      limit: MARKET_PAGE_SIZE,
    });
  });

  it('should clamp a huge limit to the maximum', () => {
    expect(marketServersQuerySchema.parse({ limit: '1000000000' }).limit).toBe(MARKET_MAX_LIMIT);
  });

  it.each([
    [{ page: '-1' }, MARKET_MESSAGES.pageInvalid],
    [{ page: '0' }, MARKET_MESSAGES.pageInvalid],
    [{ page: '1.5' }, MARKET_MESSAGES.pageInvalid],
    [{ page: 'abc' }, MARKET_MESSAGES.pageInvalid],
    [{ page: '99999999999999999999' }, MARKET_MESSAGES.pageInvalid],
    [{ page: ['1', '2'] }, MARKET_MESSAGES.pageInvalid],
    [{ limit: '0' }, MARKET_MESSAGES.limitInvalid],
    [{ limit: '-5' }, MARKET_MESSAGES.limitInvalid],
    [{ sort: 'name' }, MARKET_MESSAGES.sortInvalid],
    [{ order: 'up' }, MARKET_MESSAGES.orderInvalid],
    [{ country: 'Germany' }, MARKET_MESSAGES.countryInvalid],
    [{ country: 'XK' }, MARKET_MESSAGES.countryInvalid],
    [{ search: 'x'.repeat(101) }, MARKET_MESSAGES.searchTooLong],
    [{ search: 'a\nb' }, MARKET_MESSAGES.searchInvalid],
  ])('should refuse %j with a clear message', (query, message) => {
    expect(messageOf(query)).toBe(message);
  });
});

describe('markServerProcessingRequestSchema', () => {
  it('should require serverId and clientUUID and refuse unknown fields', () => {
    const parse = (value: unknown) => {
      const result = markServerProcessingRequestSchema.safeParse(value);
      return result.success ? null : firstIssueMessage(result.error);
    };
    expect(parse({ clientUUID: 'u' })).toBe(MARKET_MESSAGES.serverIdRequired);
    expect(parse({ serverId: 's' })).toBe(MARKET_MESSAGES.clientUuidRequired);
    expect(parse({ serverId: 's', clientUUID: 'u', amount: 1 })).toBe('Unknown field: amount');
    expect(parse({ serverId: 's', clientUUID: 'u' })).toBeNull();
  });
});
