import { describe, expect, it } from '@jest/globals';
import { marketServersQuerySchema } from '@scn/proto';
import { DEFAULT_FILTERS, parseFilters, serializeFilters, serversQuery } from './market-query';

describe('parseFilters', () => {
  it('should read every filter and the page from the query string', () => {
    expect(parseFilters('search=Frank&country=de&sort=ping&order=asc&page=3')).toEqual({
      search: 'Frank',
      country: 'DE',
      sort: 'ping',
      order: 'asc',
      reachable: false,
      page: 3,
    });
  });

  it('should read the Works from my network filter only as reachable=works', () => {
    expect(parseFilters('reachable=works').reachable).toBe(true);
    expect(parseFilters('reachable=all').reachable).toBe(false);
    expect(parseFilters('reachable=yes').reachable).toBe(false);
  });

  it('should give the plain market for an empty query', () => {
    expect(parseFilters('')).toEqual(DEFAULT_FILTERS);
  });

  it('should drop values a hand-edited link got wrong, keeping the rest', () => {
    expect(parseFilters('search=ok&country=XX&sort=name&order=up&page=-2')).toEqual({
      ...DEFAULT_FILTERS,
      search: 'ok',
    });
    expect(parseFilters('page=1.5').page).toBe(1);
    expect(parseFilters('page=99999999').page).toBe(1);
  });
});

describe('serializeFilters', () => {
  it('should round-trip through parseFilters', () => {
    const filters = {
      search: 'Frankfurt',
      country: 'DE',
      sort: 'uptime',
      order: 'asc',
      reachable: true,
      page: 2,
    } as const;
    expect(parseFilters(serializeFilters(filters))).toEqual(filters);
  });

  it('should leave defaults out of the URL', () => {
    expect(serializeFilters(DEFAULT_FILTERS)).toBe('');
    expect(serializeFilters({ ...DEFAULT_FILTERS, search: '  ', page: 1 })).toBe('');
  });

  it('should keep the Works from my network filter in the URL', () => {
    expect(serializeFilters({ ...DEFAULT_FILTERS, reachable: true })).toBe('reachable=works');
  });
});

describe('serversQuery', () => {
  it('should ask for page size 20 and omit the country for All Countries', () => {
    expect(serversQuery(DEFAULT_FILTERS)).toEqual({ page: '1', limit: '20' });
  });

  it('should send the sort with its order, desc (Best First) by default', () => {
    expect(serversQuery({ ...DEFAULT_FILTERS, sort: 'price' })).toMatchObject({
      sort: 'price',
      order: 'desc',
    });
    expect(serversQuery({ ...DEFAULT_FILTERS, order: 'asc' })).toMatchObject({
      sort: 'reliability',
      order: 'asc',
    });
  });

  it('should build a query the control plane accepts', () => {
    const query = serversQuery({
      search: ' Frankfurt ',
      country: 'DE',
      sort: 'ping',
      order: 'asc',
      reachable: true,
      page: 4,
    });
    expect(marketServersQuerySchema.parse(query)).toEqual({
      search: 'Frankfurt',
      country: 'DE',
      sort: 'ping',
      order: 'asc',
      reachable: 'works',
      page: 4,
      limit: 20,
    });
    expect(serversQuery(DEFAULT_FILTERS)).not.toHaveProperty('reachable');
  });
});
