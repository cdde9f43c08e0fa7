import { insertAccount } from '../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { MARKET_SEARCH_COUNT_CAP, type MarketOrder, type MarketSort } from '@scn/proto';
import {
  broadSearchSql,
  isPairTerm,
  listingFilter,
  type MarketPageQuery,
  orderBySql,
  orderKeys,
  pageSql,
  type PageSql,
  SEARCH_WALK_ROWS,
} from './market-query';

/**
 * The plans PostgreSQL picks for the market's text searches on a market of SERVERS listings
 * (bench/market's shape at a fifth of its size): every search reaches its matches through the
 * trigram index, and a term naming a country adds the country index, so a search costs what
 * its matches cost and never a read of every listing.
 */
const SERVERS = Number(process.env.PLAN_SERVERS ?? 20_000);
// One city and one host part in 20, as in bench/market (5% of the market each). Germany, Italy
// and Japan, the countries searched by name and code, hold 1% each (at 5% a sequential read of
// 20,000 small rows costs what the index does, and the planner may rightly take it).
const OTHER_COUNTRIES = ['US', 'NL', 'FR', 'GB', 'SE'];

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe('market search plans', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    const owner = await insertAccount(db);
    // Through the production triggers, as bench/market seeds: every server listed.
    await db.query(
      `INSERT INTO servers (id, owner_uuid, name, source, tier, country, location, host, port, inbound,
                            ping_ms, uptime_seconds, reliability_at_report, last_report_at, core_state)
       SELECT gen_random_uuid(), $1, 'Node ' || i, 'agent', 'tier2',
              CASE i % 100 WHEN 0 THEN 'DE' WHEN 25 THEN 'IT' WHEN 50 THEN 'JP'
                ELSE ($2::text[])[1 + i % 5] END,
              CASE WHEN i % 20 = 3 THEN 'Frankfurt' ELSE 'City ' || i % 20 END,
              'n' || i || '.edge-' || (i % 20) || '.example', 443,
              '{"security":"reality","sni":"www.example.com","fp":"chrome","pbk":"k","sid":"ab","flow":"xtls-rprx-vision","network":"tcp"}',
              5 + (i * 37) % 295, ((i * 13) % 2000) * 3600, 95 + i % 6, now(), 'running'
       FROM generate_series(1, $3::int) AS i`,
      [owner, OTHER_COUNTRIES, SERVERS],
    );
    await db.query('VACUUM ANALYZE market_listings');
    await db.query('VACUUM ANALYZE servers');
  }, 120_000);

  afterAll(async () => {
    await db.drop();
  });

  async function planOf(query: Omit<MarketPageQuery, 'page' | 'limit'>): Promise<PlanNode[]> {
    const { sql, params } = pageSql({ page: 1, limit: 20, ...query });
    const [row] = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      params,
    );
    return nodesOf(row!['QUERY PLAN'][0]!.Plan);
  }

  /**
   * The listings a search's statements (pageSql, then broadSearchSql when the count reached the
   * cap) read, as EXPLAIN ANALYZE counts them: every row a scan of market_listings returned or
   * threw away (a count of rows, not of time, so a loaded machine cannot fail or pass it).
   */
  async function listingsRead(query: Omit<MarketPageQuery, 'page' | 'limit'>, page = 1) {
    const asked = { page, limit: 20, ...query };
    const analyzed = async ({ sql, params }: PageSql) => {
      const [row] = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        params,
      );
      return nodesOf(row!['QUERY PLAN'][0]!.Plan);
    };
    const first = pageSql(asked);
    const [counted] = await db.query<{ total: number; capped: boolean }>(first.sql, first.params);
    const broad = counted!.capped ? broadSearchSql(asked) : null;
    const readBy = (nodes: PlanNode[]) =>
      listingScans(nodes).reduce(
        (sum, n) =>
          sum +
          (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1) +
          (n['Rows Removed by Filter'] ?? 0) +
          (n['Rows Removed by Index Recheck'] ?? 0),
        0,
      );
    const counting = readBy(await analyzed(first));
    const paging = broad ? readBy(await analyzed(broad)) : 0;
    return {
      read: counting + paging,
      /** What the first statement (the count, and the page of a term below the cap) read. */
      counting,
      /** What broadSearchSql read (0 without it). */
      paging,
      total: counted!.total,
      capped: counted!.capped,
    };
  }

  /** The listings a plain read of a filter's matches finds (what "its match set" is). */
  async function matchCount(search: string): Promise<number> {
    const filter = listingFilter({ search });
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM market_listings WHERE ${filter.where}`,
      filter.params,
    );
    return row!.n;
  }

  const listingScans = (nodes: PlanNode[]) =>
    nodes.filter((n) => n['Relation Name'] === 'market_listings');
  const indexScansOf = (nodes: PlanNode[], index: string) =>
    nodes.filter((n) => n['Index Name'] === index);

  /**
   * The index a term's text part goes through: two characters have their own (isPairTerm), whose
   * function the planner inlines (its body shows in the plan, not its name).
   */
  const textIndex = (search: string) =>
    isPairTerm(search)
      ? { name: 'ix_market_listings_search_pairs', cond: 'regexp_replace(search_text' }
      : { name: 'ix_market_listings_search', cond: 'search_text ~~' };

  it.each([
    ['a city', 'frankfurt'],
    ['a host part', 'edge-7'],
    ['one host', 'n12345.edge'],
    ['a mixed-case name', 'NODE 777 '],
    ['LIKE wildcards taken literally', '50%_off'],
    ['two characters', 'zq'],
    ['two characters across words', 'x '],
  ])('should find %s (%j) through an index, never a read of every listing', async (_, search) => {
    const nodes = await planOf({ search });
    expect(listingScans(nodes).map((n) => n['Node Type'])).not.toContain('Seq Scan');
    const { name, cond } = textIndex(search);
    const text = indexScansOf(nodes, name);
    expect(text).toHaveLength(1);
    expect(text[0]!['Index Cond']).toContain(cond);
  });

  it.each([
    ['English', 'Germany'],
    ['Persian', 'آلمان'],
    ['Russian', 'Германия'],
    ['Chinese, two characters', '德国'],
    ['Chinese, three characters', '意大利'],
    ['a country code', 'jp'],
  ])(
    'should add the country index for a country named in %s (%j), beside the text index',
    async (_, search) => {
      const nodes = await planOf({ search });
      expect(listingScans(nodes).map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(indexScansOf(nodes, textIndex(search).name)).toHaveLength(1);
      const country = indexScansOf(nodes, 'ix_market_listings_country');
      expect(country).toHaveLength(1);
      expect(country[0]!['Index Cond']).toContain('country = ANY');
    },
  );

  it('should read a search within a country through an index', async () => {
    const nodes = await planOf({ search: 'frankfurt', country: 'DE', sort: 'ping', order: 'asc' });
    const scans = listingScans(nodes);
    expect(scans.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(
      scans.every((n) => n['Index Name'] !== undefined || n['Recheck Cond'] !== undefined),
    ).toBe(true);
  });

  /**
   * A search counts at most MARKET_SEARCH_COUNT_CAP + 1 matches and a broad one walks at most
   * SEARCH_WALK_ROWS rows of its order for the page; the bound leaves room for the rows a scan
   * throws away on the way (a sequential read stops after the cap's matches, at 5% of the
   * listings matching that is 20 rows a match) but not for reading every match of a broad term.
   */
  const BOUND = 2 * (MARKET_SEARCH_COUNT_CAP + 1) + SEARCH_WALK_ROWS;
  const SORTS: ReadonlyArray<[MarketSort | undefined, MarketOrder, boolean]> = [
    [undefined, 'desc', false],
    ['reliability', 'desc', false],
    ['reliability', 'asc', false],
    ['ping', 'asc', false],
    ['ping', 'desc', false],
    ['uptime', 'desc', false],
    ['uptime', 'asc', false],
    ['price', 'desc', true],
    ['price', 'asc', true],
  ];

  it.each([
    ['every name', 'node'],
    ['every host', 'example'],
    ['a host part in 11 of 20', 'edge-1'],
    ['two characters in every name', 'no'],
    ['a country code inside every name', 'de'],
    ['a country named in English', 'Germany'],
    ['a country named in Chinese', '德国'],
  ])(
    'should read a bounded number of listings for %s (%j) in every order, never all its matches',
    async (_, search) => {
      for (const [sort, order, pricesDiffer] of SORTS) {
        const { read, total, capped } = await listingsRead({ search, sort, order, pricesDiffer });
        const context = `${search} by ${sort ?? 'default'} ${order}: ${read} listings read`;
        expect({ context, read: read <= BOUND }).toEqual({ context, read: true });
        if (capped) expect(total).toBe(MARKET_SEARCH_COUNT_CAP);
      }
    },
  );

  it('should read no more than the cap of matches for a term below it, nor anything for none', async () => {
    // 'Frankfurt' is one location in 20: at SERVERS 20,000 exactly the cap.
    for (const search of ['frankfurt', 'n12345.edge', 'zzzz', 'zq', '意大利']) {
      const { read, capped } = await listingsRead({ search });
      expect({ search, read: read <= BOUND }).toEqual({ search, read: true });
      expect(capped).toBe(false);
    }
  });

  it('should read about its match set for a term below the cap, in every order', async () => {
    // The count's read is the page's read: the matches once, through the text and country
    // indexes (a little more where a bitmap's lossy page or a union's two reads overlap).
    for (const search of [
      'frankfurt',
      'Germany',
      'آلمان',
      'Германия',
      '德国',
      '意大利',
      'n12345.edge',
    ]) {
      const matches = await matchCount(search);
      for (const [sort, order, pricesDiffer] of SORTS) {
        const { read, counting, paging, capped } = await listingsRead({
          search,
          sort,
          order,
          pricesDiffer,
        });
        const context = `${search} (${matches} matches) by ${sort ?? 'default'} ${order}`;
        expect({ context, capped, paging, counting }).toEqual({
          context,
          capped: false,
          paging: 0,
          counting: read,
        });
        expect({ context, read: read <= matches + 20 }).toEqual({ context, read: true });
      }
    }
  });

  it('should count a country-named term as a plain count would, with or without a country filter', async () => {
    const cases: ReadonlyArray<[string, string | undefined]> = [
      ['Germany', undefined],
      ['Germany', 'DE'],
      ['Germany', 'US'],
      ['Sweden', undefined],
      ['Sweden', 'SE'],
      ['Sweden', 'DE'],
      ['de', undefined],
      ['de', 'DE'],
      ['德国', 'US'],
      ['jp', undefined],
    ];
    for (const [search, country] of cases) {
      const filter = listingFilter({ search, country });
      const [plain] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM market_listings WHERE ${filter.where}`,
        filter.params,
      );
      const first = pageSql({ search, country, page: 1, limit: 20 });
      const [row] = await db.query<{ total: number; capped: boolean }>(first.sql, first.params);
      const context = `${search} in ${country ?? 'every country'}`;
      expect({ context, total: row!.total, capped: row!.capped }).toEqual({
        context,
        total: Math.min(plain!.n, MARKET_SEARCH_COUNT_CAP),
        capped: plain!.n > MARKET_SEARCH_COUNT_CAP,
      });
    }
  });

  it('should count a term whose countries alone pass the cap without reading a listing', async () => {
    // Sweden holds a fifth of the market: market_counts says "1,000+" by itself.
    const { counting, capped } = await listingsRead({ search: 'Sweden' });
    expect({ counting, capped }).toEqual({ counting: 0, capped: true });
  });

  it('should walk the order for a broad term whose matches spread over it, in every order', async () => {
    // 'node' and 'example' match every listing, 'edge-1' 11 in 20: the page is found within the
    // first rows of the order's index, so the second statement reads no more than the walk and
    // never reads the matches whole (which would be the whole market). The count reads the cap
    // + 1 matches and the text index's false candidates beside them ('edge-1' in 'edge-10').
    for (const search of ['node', 'example', 'edge-1']) {
      for (const [sort, order, pricesDiffer] of SORTS) {
        const { counting, paging, capped } = await listingsRead({
          search,
          sort,
          order,
          pricesDiffer,
        });
        const context = `${search} by ${sort ?? 'default'} ${order}: count ${counting}, page ${paging}`;
        expect({
          context,
          capped,
          counting: counting <= 2 * (MARKET_SEARCH_COUNT_CAP + 1),
        }).toEqual({
          context,
          capped: true,
          counting: true,
        });
        expect({ context, walked: paging > 0 && paging <= SEARCH_WALK_ROWS }).toEqual({
          context,
          walked: true,
        });
      }
    }
  });

  it('should read a bounded number of listings for the last page before the cap', async () => {
    const { read } = await listingsRead({ search: 'example' }, MARKET_SEARCH_COUNT_CAP / 20);
    // The walk ends at the page's end (1,000 matches in 1,000 rows: every listing matches).
    expect(read).toBeLessThanOrEqual(BOUND);
  });

  it('should page a search past the cap as an exact order would, in every order, up to the cap', async () => {
    for (const [sort, order, pricesDiffer] of SORTS) {
      // 'edge-1' walks (11 listings in 20 match); 'Germany' (a country of 1%, below the cap)
      // and the last pages take their matches in order.
      for (const [search, page] of [
        ['edge-1', 1],
        ['edge-1', 7],
        ['edge-1', 50],
        ['node', 50],
        ['Germany', 2],
        // A country of a fifth (walked on page 1; page 50 from its country's top and its text's),
        // and a code that is also in every name.
        ['Sweden', 1],
        ['Sweden', 50],
        ['de', 50],
      ] as const) {
        const asked = { search, sort, order, pricesDiffer, page, limit: 20 };
        const first = pageSql(asked);
        const rows = await db.query<{ server_id: string | null; capped: boolean }>(
          first.sql,
          first.params,
        );
        const broad = rows[0]!.capped ? broadSearchSql(asked) : null;
        const got = (broad ? await db.query<{ server_id: string }>(broad.sql, broad.params) : rows)
          .map((r) => r.server_id)
          .filter((id) => id !== null);
        const filter = listingFilter(asked);
        const keys = orderBySql(orderKeys(sort, order, pricesDiffer));
        const exact = await db.query<{ server_id: string }>(
          `SELECT server_id FROM market_listings WHERE ${filter.where} ORDER BY ${keys}
           LIMIT 20 OFFSET ${(page - 1) * 20}`,
          filter.params,
        );
        const context = `${search} page ${page} by ${sort ?? 'default'} ${order}`;
        expect({ context, got }).toEqual({ context, got: exact.map((r) => r.server_id) });
      }
    }
    // Past the cap nothing is read, and the count says so.
    const past = pageSql({ search: 'node', page: 51, limit: 20 });
    const [row] = await db.query<{ total: number; capped: boolean; server_id: string | null }>(
      past.sql,
      past.params,
    );
    expect(row).toMatchObject({ total: MARKET_SEARCH_COUNT_CAP, capped: true, server_id: null });
    expect(broadSearchSql({ search: 'node', page: 51, limit: 20 })).toBeNull();
  });
});
