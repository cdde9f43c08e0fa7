import { MARKET_SEARCH_COUNT_CAP } from '@scn/proto';
import {
  broadSearchSql,
  containsPattern,
  isPairTerm,
  listingFilter,
  orderBySql,
  orderKeys,
  pageSql,
  SEARCH_WALK_ROWS,
  totalPages,
} from './market-query';

describe('orderKeys', () => {
  it('should put disabled last and promoted first before any chosen field (spec 01 §9)', () => {
    for (const sort of [undefined, 'reliability', 'ping', 'uptime', 'price'] as const) {
      for (const order of ['desc', 'asc'] as const) {
        const keys = orderKeys(sort, order);
        expect(keys.slice(0, 3)).toEqual([
          { column: 'sort_group', direction: 'ASC' },
          { column: 'sort_promotion_micro', direction: 'DESC', nulls: 'LAST' },
          { column: 'sort_promoted_at', direction: 'DESC', nulls: 'LAST' },
        ]);
        // Among servers equal on every other key, stakers first, then the id.
        expect(keys.slice(-2)).toEqual([
          { column: 'staker', direction: 'DESC' },
          { column: 'server_id', direction: 'ASC' },
        ]);
      }
    }
  });

  it('should default to reliability descending then ping ascending when no sort is chosen', () => {
    expect(orderBySql(orderKeys(undefined))).toBe(
      'sort_group ASC, sort_promotion_micro DESC NULLS LAST, sort_promoted_at DESC NULLS LAST, sort_reliability DESC, ping_ms ASC NULLS LAST, staker DESC, server_id ASC',
    );
  });

  it('should treat the lowest ping as best and an unmeasured ping as worst', () => {
    expect(orderKeys('ping', 'desc')[3]).toEqual({
      column: 'ping_ms',
      direction: 'ASC',
      nulls: 'LAST',
    });
    expect(orderKeys('ping', 'asc')[3]).toEqual({
      column: 'ping_ms',
      direction: 'DESC',
      nulls: 'FIRST',
    });
  });

  it('should put the highest reliability and uptime first when best first (desc)', () => {
    expect(orderKeys('reliability', 'desc')[3]).toEqual({
      column: 'sort_reliability',
      direction: 'DESC',
    });
    expect(orderKeys('reliability', 'asc')[3]).toEqual({
      column: 'sort_reliability',
      direction: 'ASC',
    });
    expect(orderKeys('uptime', 'desc')[3]).toEqual({ column: 'uptime_hours', direction: 'DESC' });
    expect(orderKeys('uptime', 'asc')[3]).toEqual({ column: 'uptime_hours', direction: 'ASC' });
  });

  it('should fall back to the default order for price while every regular server costs the same', () => {
    expect(orderKeys('price', 'asc')).toEqual(orderKeys(undefined));
    expect(orderKeys('price', 'desc')).toEqual(orderKeys(undefined));
  });

  it('should put free servers first for price best first once prices differ, paid first for worst first', () => {
    expect(orderBySql(orderKeys('price', 'desc', true))).toBe(
      'sort_group ASC, sort_promotion_micro DESC NULLS LAST, sort_promoted_at DESC NULLS LAST, free DESC, sort_reliability DESC, ping_ms ASC NULLS LAST, staker DESC, server_id ASC',
    );
    expect(orderBySql(orderKeys('price', 'asc', true))).toBe(
      'sort_group ASC, sort_promotion_micro DESC NULLS LAST, sort_promoted_at DESC NULLS LAST, free ASC, sort_reliability DESC, ping_ms ASC NULLS LAST, staker DESC, server_id ASC',
    );
  });
});

describe('listingFilter', () => {
  it('should always filter on listed first, so the partial indexes apply', () => {
    expect(listingFilter({})).toEqual({
      where: 'listed',
      params: [],
      walk: 'listed',
      match: null,
      named: null,
      country: null,
    });
    expect(listingFilter({ country: 'DE', search: 'edge' })).toEqual({
      where: 'listed AND country = $1::bpchar AND search_text LIKE lower($2)',
      params: ['DE', '%edge%'],
      walk: 'listed AND country = $1::bpchar',
      match: 'search_text LIKE lower($2)',
      named: null,
      country: '$1::bpchar',
    });
  });

  it('should also match the countries a search names, in any of the four languages', () => {
    for (const search of ['Germany', 'آلمان', 'Германия', '意大利']) {
      expect(listingFilter({ search })).toEqual({
        where: 'listed AND (search_text LIKE lower($1) OR country = ANY($2::bpchar[]))',
        params: [`%${search}%`, [search === '意大利' ? 'IT' : 'DE']],
        walk: 'listed',
        match: '(search_text LIKE lower($1) OR country = ANY($2::bpchar[]))',
        // The text apart, so the countries are counted from market_counts.
        named: {
          text: 'search_text LIKE lower($1)',
          countries: '$2::bpchar[]',
        },
        country: null,
      });
    }
  });

  it('should find a term of two characters through its pieces, not LIKE, and walk by strpos', () => {
    expect(listingFilter({ search: '德国' })).toEqual({
      where:
        'listed AND (market_search_pairs(search_text) @> ARRAY[lower($1)] OR country = ANY($2::bpchar[]))',
      params: ['德国', ['DE']],
      walk: 'listed',
      match: '(strpos(search_text, lower($1)) > 0 OR country = ANY($2::bpchar[]))',
      named: {
        text: 'market_search_pairs(search_text) @> ARRAY[lower($1)]',
        countries: '$2::bpchar[]',
      },
      country: null,
    });
    // Taken as it is: the pieces are plain text, LIKE's wildcards mean nothing there.
    expect(listingFilter({ search: '%_' })).toEqual({
      where: 'listed AND market_search_pairs(search_text) @> ARRAY[lower($1)]',
      params: ['%_'],
      walk: 'listed',
      match: 'strpos(search_text, lower($1)) > 0',
      named: null,
      country: null,
    });
    expect(listingFilter({ search: 'x' }).where).toBe('listed AND search_text LIKE lower($1)');
    expect(listingFilter({ search: 'abc' }).where).toBe('listed AND search_text LIKE lower($1)');
  });

  it('should count two characters by code points and keep a term whose lower case grows on LIKE', () => {
    expect(isPairTerm('德国')).toBe(true);
    expect(isPairTerm('😀a')).toBe(true);
    expect(isPairTerm('x')).toBe(false);
    expect(isPairTerm('abc')).toBe(false);
    // U+0130 lowers to two code points ("i" and a combining dot).
    expect(isPairTerm('\u0130x')).toBe(false);
  });

  it("should take LIKE's wildcards in a search literally", () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('pageSql', () => {
  it('should page with LIMIT and OFFSET after the filter parameters, reading nothing past the end', () => {
    const { sql, params } = pageSql({ country: 'NL', page: 3, limit: 20 });
    expect(params).toEqual(['NL', 20, 40]);
    expect(sql).toContain('WHERE listed AND country = $1');
    expect(sql).toContain('WHERE listed AND country = $1::bpchar AND $3 < (SELECT total FROM t)');
    expect(sql).toContain('LIMIT $2 OFFSET $3');
  });

  it('should count from the counters without a search and the matches with one', () => {
    expect(pageSql({ page: 1, limit: 20 }).sql).toContain('FROM market_counts');
    expect(pageSql({ country: 'DE', page: 1, limit: 20 }).sql).toContain(
      'FROM market_counts WHERE country = $1',
    );
    const search = pageSql({ search: 'x', page: 1, limit: 20 }).sql;
    expect(search).toContain('WHERE listed AND search_text LIKE lower($1)');
    expect(search).not.toContain('market_counts');
  });

  it('should count a search up to the cap and end its pages there', () => {
    const first = pageSql({ search: 'edge', page: 2, limit: 20 });
    expect(first.params).toEqual(['%edge%', 20, 20, MARKET_SEARCH_COUNT_CAP]);
    expect(first.sql).toContain('LIMIT $4 + 1');
    expect(first.sql).toContain('t.found > $4 AS capped');
    // The last page before the cap is cut at the cap; past it nothing is read.
    expect(broadSearchSql({ search: 'edge', page: 34, limit: 30 })?.params).toEqual([
      '%edge%',
      MARKET_SEARCH_COUNT_CAP - 990,
      990,
      MARKET_SEARCH_COUNT_CAP,
      SEARCH_WALK_ROWS,
    ]);
    expect(pageSql({ search: 'edge', page: 51, limit: 20 }).params).toEqual([
      '%edge%',
      0,
      1000,
      MARKET_SEARCH_COUNT_CAP,
    ]);
    expect(broadSearchSql({ search: 'edge', page: 51, limit: 20 })).toBeNull();
    expect(broadSearchSql({ page: 1, limit: 20 })).toBeNull();
  });

  it('should walk a broad search in the order of its page, within a country through the filter', () => {
    const broad = broadSearchSql({
      search: 'edge',
      country: 'DE',
      sort: 'ping',
      page: 1,
      limit: 20,
    })!;
    expect(broad.sql).toContain(
      `WHERE listed AND country = $1::bpchar ORDER BY ${orderBySql(orderKeys('ping'))} LIMIT $6`,
    );
    expect(broad.sql).toContain('x WHERE search_text LIKE lower($2)');
  });

  it('should count at least one page', () => {
    expect(totalPages(0, 20)).toBe(1);
    expect(totalPages(20, 20)).toBe(1);
    expect(totalPages(21, 20)).toBe(2);
  });
});
