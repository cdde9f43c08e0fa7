import { MARKET_SEARCH_COUNT_CAP, type MarketOrder, type MarketSort } from '@scn/proto';
import { countriesMatching } from './country-search';

/** What a page is asked for: the validated `MarketServersQuery` (or a test's subset of it). */
export interface MarketFilter {
  search?: string;
  country?: string;
  /** Only these servers ("works from my network": those measured working from the visitor's). */
  serverIds?: readonly string[];
}
export interface MarketPageQuery extends MarketFilter {
  sort?: MarketSort;
  order?: MarketOrder;
  page: number;
  limit: number;
  /**
   * Whether listed prices differ between regular servers: after the launch period, free servers
   * (added without the agent) against 10 SSL. Set by the market from the clock.
   */
  pricesDiffer?: boolean;
}

/**
 * The market's order and filters (docs/product/constants.md#market-prices-and-limits) as SQL over `market_listings`. Pure, so the rules
 * are unit-tested; every order here has an index of the same keys (market migration), which is
 * what keeps a page an index scan at 100,000 servers.
 */

export interface OrderKey {
  column:
    | 'sort_group'
    | 'sort_promotion_micro'
    | 'sort_promoted_at'
    | 'sort_reliability'
    | 'ping_ms'
    | 'uptime_hours'
    | 'free'
    | 'staker'
    | 'server_id';
  direction: 'ASC' | 'DESC';
  nulls?: 'FIRST' | 'LAST';
}

/**
 * docs/product/constants.md#market-prices-and-limits: disabled servers last (sort_group 3..5), promoted first (0 premium, 1 promoted,
 * 2 other); docs/product/states.md#market-and-account-states: among promoted servers the higher promotion (more SSL paid for the one
 * running now) first, then the most recently promoted.
 */
const PREFIX: readonly OrderKey[] = [
  { column: 'sort_group', direction: 'ASC' },
  { column: 'sort_promotion_micro', direction: 'DESC', nulls: 'LAST' },
  { column: 'sort_promoted_at', direction: 'DESC', nulls: 'LAST' },
];
const RELIABILITY_BEST: OrderKey = { column: 'sort_reliability', direction: 'DESC' };
const PING_BEST: OrderKey = { column: 'ping_ms', direction: 'ASC', nulls: 'LAST' };
/** Worst ping first: the highest, and an unmeasured ping is the worst of all. */
const PING_WORST: OrderKey = { column: 'ping_ms', direction: 'DESC', nulls: 'FIRST' };
/** docs/product/constants.md#billing-and-the-economy: stakers get priority at capacity: among otherwise equal servers they sort first. */
const STAKERS_FIRST: OrderKey = { column: 'staker', direction: 'DESC' };
/** A stable tiebreak, so pages never overlap or skip. */
const TIEBREAK: OrderKey = { column: 'server_id', direction: 'ASC' };

/**
 * The keys for a sort choice. `order` desc means Best First: the highest reliability and
 * uptime, the lowest ping. Without a sort: reliability descending, then ping ascending.
 * After the chosen field, ties fall back to that default order; servers equal on every key
 * show stakers first, then by id.
 *
 * Price: premium servers (10 SSL) form their own group ahead of the rest; among the others,
 * servers added without the agent are free and agent servers cost 10 SSL, so Best
 * First puts the free ones first and the default order applies within a price. In the launch
 * period every regular server is free (`pricesDiffer` false) and price orders nothing.
 */
export function orderKeys(
  sort: MarketSort | undefined,
  order: MarketOrder = 'desc',
  pricesDiffer = false,
): OrderKey[] {
  const best = order === 'desc';
  let keys: OrderKey[];
  switch (sort) {
    case 'price':
      keys = pricesDiffer
        ? [{ column: 'free', direction: best ? 'DESC' : 'ASC' }, RELIABILITY_BEST, PING_BEST]
        : [RELIABILITY_BEST, PING_BEST];
      break;
    case 'ping':
      keys = [best ? PING_BEST : PING_WORST, RELIABILITY_BEST];
      break;
    case 'uptime':
      keys = [
        { column: 'uptime_hours', direction: best ? 'DESC' : 'ASC' },
        RELIABILITY_BEST,
        PING_BEST,
      ];
      break;
    case 'reliability':
      keys = [
        best ? RELIABILITY_BEST : { column: 'sort_reliability', direction: 'ASC' },
        PING_BEST,
      ];
      break;
    default:
      keys = [RELIABILITY_BEST, PING_BEST];
  }
  return [...PREFIX, ...keys, STAKERS_FIRST, TIEBREAK];
}

export function orderBySql(keys: readonly OrderKey[], alias = ''): string {
  const prefix = alias ? `${alias}.` : '';
  return keys
    .map((k) => `${prefix}${k.column} ${k.direction}${k.nulls ? ` NULLS ${k.nulls}` : ''}`)
    .join(', ');
}

/** A LIKE pattern that matches `term` anywhere, with LIKE's wildcards in `term` taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A term of two characters: found through the index of the texts' two-character pieces
 * (market_search_pairs), the same matches as LIKE, since a trigram index needs three characters
 * and would otherwise read every listing. Its lower case must keep two characters too (a few
 * letters grow when lowered; those go through LIKE).
 */
export function isPairTerm(term: string): boolean {
  return [...term].length === 2 && [...term.toLowerCase()].length === 2;
}

export interface ListingFilter {
  /** The WHERE clause over market_listings (always `listed` first: the indexes are partial). */
  where: string;
  params: unknown[];
  /** `where` without the text search (same parameters): what an ordered walk may read. */
  walk: string;
  /**
   * The text search's condition as a walk over `walk` applies it to each row (for two
   * characters the same match by strpos: the two-character index's function costs far more
   * per row), or null without a search.
   */
  match: string | null;
  /**
   * A term that names countries: its text condition alone (through the text index) and the
   * countries' parameter, whose listings market_counts counts.
   */
  named: { text: string; countries: string } | null;
  /** The country filter's parameter (`$n::bpchar`), or null without one. */
  country: string | null;
}

/**
 * docs/product/screens.md#the-shell-and-the-market-screens: search by name, location or host (case-insensitive: the stored text and the
 * pattern are both lower-cased by PostgreSQL, and LIKE is several times cheaper than ILIKE;
 * a term of two characters through its own index, isPairTerm), or
 * by the country the term names in any of the portal's languages or by its code (docs/i18n.md
 * "Country search": the country index answers that part); the country filter.
 */
export function listingFilter(query: MarketFilter): ListingFilter {
  const clauses = ['listed'];
  const params: unknown[] = [];
  let country: string | null = null;
  if (query.country) {
    params.push(query.country);
    // A bpchar parameter, so the comparison stays on the char(2) column and its index.
    country = `$${params.length}::bpchar`;
    clauses.push(`country = ${country}`);
  }
  if (query.serverIds) {
    params.push(query.serverIds);
    clauses.push(`server_id = ANY($${params.length}::uuid[])`);
  }
  const walk = clauses.join(' AND ');
  let match: string | null = null;
  let named: ListingFilter['named'] = null;
  if (query.search) {
    let text: string;
    let like: string;
    if (isPairTerm(query.search)) {
      params.push(query.search);
      text = `market_search_pairs(search_text) @> ARRAY[lower($${params.length})]`;
      like = `strpos(search_text, lower($${params.length})) > 0`;
    } else {
      params.push(containsPattern(query.search));
      text = `search_text LIKE lower($${params.length})`;
      like = text;
    }
    const countries = countriesMatching(query.search);
    if (countries.length === 0) {
      clauses.push(text);
      match = like;
    } else {
      params.push(countries);
      const inCountries = `country = ANY($${params.length}::bpchar[])`;
      clauses.push(`(${text} OR ${inCountries})`);
      match = `(${like} OR ${inCountries})`;
      named = { text, countries: `$${params.length}::bpchar[]` };
    }
  }
  return { where: clauses.join(' AND '), params, walk, match, named, country };
}

export interface PageSql {
  sql: string;
  params: unknown[];
}

/** The listing columns one page needs (the ORDER BY keys among them). */
const LISTING_COLUMNS = `server_id, country, reliability, stale, ping_ms, uptime_hours, allowed_clients,
  capacity, premium, promoted, core_down, disabled, sort_group, sort_promotion_micro, sort_promoted_at,
  sort_reliability, free, staker`;

/** The page's rows with what the card shows from servers, and the premium servers' numbers. */
const PAGE_COLUMNS = `l.server_id, l.country, l.reliability, l.stale, l.ping_ms, l.uptime_hours,
  l.allowed_clients, l.capacity, l.premium, l.promoted, l.core_down, l.disabled, l.sort_group,
  l.sort_promotion_micro, l.sort_promoted_at, l.sort_reliability, l.free, l.staker, s.owner_uuid, s.name, s.location, s.host,
  s.port,
  s.inbound, s.source, s.last_report_at, s.active_clients,
  CASE WHEN l.premium THEN (
    SELECT count(*)::int FROM market_listings p JOIN servers ps ON ps.id = p.server_id
    WHERE p.premium AND (ps.created_at, ps.id) <= (s.created_at, s.id)
  ) END AS premium_number`;

/**
 * How many rows of the page's sort order a broad search walks before it takes the matches in
 * order instead: the walk stops at its page once it has the page's matches, which a term
 * matching over MARKET_SEARCH_COUNT_CAP of the servers (1% of 100,000 or more) finds within a
 * few hundred rows unless its matches gather at the end of the order.
 */
export const SEARCH_WALK_ROWS = 1_000;

/**
 * One page and the number of matches, in one statement (one round trip):
 * - Without a search the page is an ordered index scan that stops after the page, and the
 *   count comes from `market_counts` (one row per country, kept exact by triggers). A page past
 *   the end is not scanned at all (a one-time filter on the count).
 * - With a search the count stops at MARKET_SEARCH_COUNT_CAP + 1 matches (docs/api.md "Market
 *   search": a search says "1,000+" past it, and its pages end at the cap), found through the
 *   text index, so no search visits more matches than that to count them; a term with at most
 *   the cap of matches takes its page from those, a broader one from broadSearchSql.
 * - A set of servers without a search ("works from my network") is counted whole.
 * The answer has at least one row, carrying `total` (and `capped`); a row without `server_id`
 * means an empty page. LIMIT and OFFSET stay plain parameters, so the planner sees the page size.
 */
export function pageSql(query: MarketPageQuery): PageSql {
  if (query.search) return searchPageSql(query);
  const filter = listingFilter(query);
  const keys = orderKeys(query.sort, query.order, query.pricesDiffer);
  const params = [...filter.params, query.limit, (query.page - 1) * query.limit];
  const limit = `$${params.length - 1}`;
  const offset = `$${params.length}`;
  const page = (scan: string) => `SELECT ${PAGE_COLUMNS}
      FROM (${scan} ORDER BY ${orderBySql(keys)} LIMIT ${limit} OFFSET ${offset}) l
      JOIN servers s ON s.id = l.server_id`;
  const order = orderBySql(keys, 'p');
  // A set of servers: its matches are counted (market_counts counts countries).
  if (query.serverIds) {
    const sql = `WITH m AS MATERIALIZED (
        SELECT ${LISTING_COLUMNS} FROM market_listings WHERE ${filter.where}
      ), t AS (SELECT count(*)::int AS total FROM m)
      SELECT t.total, false AS capped, p.* FROM t LEFT JOIN (
        ${page(`SELECT ${LISTING_COLUMNS} FROM m`)}
      ) p ON true
      ORDER BY ${order}`;
    return { sql, params };
  }
  const counted = query.country
    ? `SELECT COALESCE(sum(listed), 0)::int AS total FROM market_counts WHERE country = $1`
    : `SELECT COALESCE(sum(listed), 0)::int AS total FROM market_counts`;
  const sql = `WITH t AS (${counted})
    SELECT t.total, false AS capped, p.* FROM t LEFT JOIN (
      ${page(
        `SELECT ${LISTING_COLUMNS} FROM market_listings
         WHERE ${filter.where} AND ${offset} < (SELECT total FROM t)`,
      )}
    ) p ON true
    ORDER BY ${order}`;
  return { sql, params };
}

/** Where a search's page ends: pages end at the cap, the rows past it are never read. */
function searchWindow(query: MarketPageQuery): { offset: number; limit: number } {
  const offset = (query.page - 1) * query.limit;
  return { offset, limit: Math.max(0, Math.min(query.limit, MARKET_SEARCH_COUNT_CAP - offset)) };
}

/**
 * A search's first statement (pageSql): its matches counted up to the cap + 1, and its page
 * from them when there are no more than the cap (otherwise broadSearchSql reads the page).
 */
function searchPageSql(query: MarketPageQuery): PageSql {
  const filter = listingFilter(query);
  if (filter.named && !query.serverIds) return namedSearchPageSql(query, filter, filter.named);
  return countedPageSql(
    query,
    filter,
    (cap) => `m AS MATERIALIZED (
      SELECT ${LISTING_COLUMNS} FROM market_listings WHERE ${filter.where} LIMIT ${cap} + 1
    ), t AS (SELECT count(*)::int AS found FROM m)`,
    'm',
  );
}

/**
 * A search's first statement around what counts its matches: `counted` (given the cap's
 * parameter) defines `t.found`, the matches up to the cap + 1, and the rows `source` names; the
 * page is taken from those rows when there are no more than the cap.
 */
function countedPageSql(
  query: MarketPageQuery,
  filter: ListingFilter,
  counted: (cap: string) => string,
  source: string,
): PageSql {
  const keys = orderKeys(query.sort, query.order, query.pricesDiffer);
  const window = searchWindow(query);
  const params = [...filter.params, window.limit, window.offset, MARKET_SEARCH_COUNT_CAP];
  const n = filter.params.length;
  const [limit, offset, cap] = [1, 2, 3].map((i) => `$${n + i}`);
  const sql = `WITH ${counted(cap!)}
    SELECT LEAST(t.found, ${cap})::int AS total, t.found > ${cap} AS capped, p.* FROM t LEFT JOIN (
      SELECT ${PAGE_COLUMNS} FROM (
        SELECT * FROM ${source} WHERE (SELECT found FROM t) <= ${cap}
        ORDER BY ${orderBySql(keys)} LIMIT ${limit} OFFSET ${offset}
      ) l JOIN servers s ON s.id = l.server_id
    ) p ON true
    ORDER BY ${orderBySql(keys, 'p')}`;
  return { sql, params };
}

/**
 * searchPageSql for a term that names countries ("Germany", "德国", "de"): its matches are the
 * listings of those countries, which market_counts counts exactly, and the listings elsewhere
 * whose text has the term, counted up to what the cap leaves (nothing once the countries alone
 * pass it: a country of over 1,000 servers is "1,000+" without a listing read). Below the cap the
 * page comes from both parts, as for any term.
 */
function namedSearchPageSql(
  query: MarketPageQuery,
  filter: ListingFilter,
  named: NonNullable<ListingFilter['named']>,
): PageSql {
  const within = filter.country ? ` AND country::bpchar = ${filter.country}` : '';
  return countedPageSql(
    query,
    filter,
    (cap) => `k AS (
      SELECT COALESCE(sum(listed), 0)::int AS n FROM market_counts
      WHERE country::bpchar = ANY(${named.countries})${within}
    ), m AS MATERIALIZED (
      SELECT ${LISTING_COLUMNS} FROM market_listings
      WHERE ${filter.walk} AND ${named.text} AND ${outside(named)}
      LIMIT GREATEST(0, ${cap} + 1 - (SELECT n FROM k))
    ), t AS (SELECT (SELECT n FROM k) + (SELECT count(*)::int FROM m) AS found)`,
    `(
      SELECT * FROM m
      UNION ALL
      SELECT ${LISTING_COLUMNS} FROM market_listings
      WHERE ${filter.walk} AND country = ANY(${named.countries})
    ) a`,
  );
}

/** A listing outside the countries a term names (its country unknown included). */
function outside(named: NonNullable<ListingFilter['named']>): string {
  return `(country = ANY(${named.countries})) IS NOT TRUE`;
}

/**
 * The page of a search with more matches than the cap (pageSql said `capped`), or null when
 * the page lies past the cap. At least 1% of the servers match, so the index of the page's
 * order, walked, gives the page's matches within a few hundred rows; when SEARCH_WALK_ROWS
 * rows of it hold too few (the matches gather late in the order, or a deep page), every match
 * is read and the page taken from their top (one-time filters: the statement runs one way).
 */
export function broadSearchSql(query: MarketPageQuery): PageSql | null {
  const filter = listingFilter(query);
  const window = searchWindow(query);
  if (filter.match === null || window.limit === 0) return null;
  const keys = orderKeys(query.sort, query.order, query.pricesDiffer);
  const params = [
    ...filter.params,
    window.limit,
    window.offset,
    window.offset + window.limit,
    SEARCH_WALK_ROWS,
  ];
  const n = filter.params.length;
  const [limit, offset, end, walkRows] = [1, 2, 3, 4].map((i) => `$${n + i}`);
  const order = orderBySql(keys);
  const short = `(SELECT count(*) FROM w) < ${end}`;
  const named = filter.named;
  // The country index holds each country in the default order: its top is the index's first
  // rows. In another order a country's listings are read through that index and sorted (walking
  // the order's own index for them is the walk that just failed).
  const countryOrdered = order === orderBySql(orderKeys(undefined));
  // Every match in its order: for a country-named term the text's matches elsewhere and each
  // country's top apart (the top of a union is the top of its parts' tops).
  const matches = named
    ? `(SELECT * FROM (
           SELECT ${LISTING_COLUMNS} FROM market_listings
           WHERE ${filter.walk} AND ${named.text} AND ${outside(named)} AND ${short}
           OFFSET 0
         ) x ORDER BY ${order} LIMIT ${end})
       UNION ALL
       SELECT y.* FROM unnest(${named.countries}) AS c(code) CROSS JOIN LATERAL (
         SELECT * FROM (
           SELECT ${LISTING_COLUMNS} FROM market_listings
           WHERE ${filter.walk} AND country = c.code AND ${short}${countryOrdered ? '' : ' OFFSET 0'}
         ) z ORDER BY ${order} LIMIT ${end}
       ) y`
    : `SELECT ${LISTING_COLUMNS} FROM market_listings
       WHERE ${filter.where} AND ${short}
       OFFSET 0`;
  const sql = `WITH w AS MATERIALIZED (
      SELECT ${LISTING_COLUMNS} FROM (
        SELECT ${LISTING_COLUMNS}, search_text FROM market_listings
        WHERE ${filter.walk} ORDER BY ${order} LIMIT ${walkRows}
      ) x WHERE ${filter.match} ORDER BY ${order} LIMIT ${end}
    )
    SELECT ${PAGE_COLUMNS} FROM (
      SELECT * FROM (SELECT * FROM w ORDER BY ${order} OFFSET ${offset}) walked
      WHERE (SELECT count(*) FROM w) = ${end}
      UNION ALL
      SELECT * FROM (
        SELECT * FROM (${matches}) a ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}
      ) sorted
    ) l JOIN servers s ON s.id = l.server_id
    ORDER BY ${orderBySql(keys, 'l')}`;
  return { sql, params };
}

export function totalPages(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
