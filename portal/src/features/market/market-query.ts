import {
  MARKET_MAX_PAGE,
  MARKET_ORDERS,
  MARKET_PAGE_SIZE,
  MARKET_SEARCH_MAX,
  MARKET_SORTS,
  isCountryCode,
  type MarketOrder,
  type MarketServersQueryInput,
  type MarketSort,
} from '@scn/proto';

/**
 * The market's filters live in the page's query string, so a reload or a shared link keeps the
 * search, filters and page. A hand-edited link with a bad value loses that value, never the page.
 */
export interface MarketFilters {
  search: string;
  /** ISO code; '' means All Countries. */
  country: string;
  /** Absent: the server's default order (docs/product/constants.md#market-prices-and-limits: reliability desc, then ping asc). */
  sort: MarketSort | null;
  order: MarketOrder | null;
  /** Only servers measured working from the visitor's own network (`reachable=works`). */
  reachable: boolean;
  page: number;
}

export const DEFAULT_FILTERS: MarketFilters = {
  search: '',
  country: '',
  sort: null,
  order: null,
  reachable: false,
  page: 1,
};

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;
}

export function parseFilters(search: string): MarketFilters {
  const params = new URLSearchParams(search);
  const text = (params.get('search') ?? '').slice(0, MARKET_SEARCH_MAX);
  const country = (params.get('country') ?? '').toUpperCase();
  const page = Number(params.get('page'));
  return {
    search: text,
    country: isCountryCode(country) ? country : '',
    sort: oneOf(MARKET_SORTS, params.get('sort')),
    order: oneOf(MARKET_ORDERS, params.get('order')),
    reachable: params.get('reachable') === 'works',
    page: Number.isInteger(page) && page >= 1 && page <= MARKET_MAX_PAGE ? page : 1,
  };
}

/** The query string of the filters, without defaults ('' for the plain market). */
export function serializeFilters(filters: MarketFilters): string {
  const params = new URLSearchParams();
  const text = filters.search.trim();
  if (text) params.set('search', text);
  if (filters.country) params.set('country', filters.country);
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.order) params.set('order', filters.order);
  if (filters.reachable) params.set('reachable', 'works');
  if (filters.page > 1) params.set('page', String(filters.page));
  return params.toString();
}

/** The `/data/servers` query of the filters (docs/product/calls.md#market-and-account-calls: country omitted when 'all'). */
export function serversQuery(filters: MarketFilters): MarketServersQueryInput {
  const query: MarketServersQueryInput = {
    page: String(filters.page),
    limit: String(MARKET_PAGE_SIZE),
  };
  const text = filters.search.trim();
  if (text) query.search = text;
  if (filters.country) query.country = filters.country;
  if (filters.reachable) query.reachable = 'works';
  if (filters.sort) {
    query.sort = filters.sort;
    query.order = filters.order ?? 'desc';
  } else if (filters.order) {
    // Order alone applies to the default field, reliability (docs/product/screens.md#the-shell-and-the-market-screens: Sort By's first option).
    query.sort = 'reliability';
    query.order = filters.order;
  }
  return query;
}
