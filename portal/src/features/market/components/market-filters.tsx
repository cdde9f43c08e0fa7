import { MARKET_SEARCH_MAX, type MarketOrder, type MarketSort } from '@scn/proto';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import type { MarketFilters as Filters } from '../market-query';
import '../market.css';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 350;

const SORT_OPTIONS: readonly { value: MarketSort; label: string }[] = [
  { value: 'reliability', label: 'Reliability' },
  { value: 'ping', label: 'Ping' },
  { value: 'uptime', label: 'Uptime' },
  { value: 'price', label: 'Price' },
];

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

function countryName(code: string): string {
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

export interface MarketFiltersProps {
  filters: Filters;
  countries: readonly string[];
  /** A change of filters (the page goes back to 1). */
  onChange: (change: Partial<Omit<Filters, 'page'>>) => void;
}

/**
 * spec 01 §2: the search box (debounced) and the Filters toggle with Country, Sort By and Order
 * (Best First = desc, Worst First = asc).
 */
export function MarketFilters({ filters, countries, onChange }: MarketFiltersProps) {
  const [text, setText] = useState(filters.search);
  const [open, setOpen] = useState(
    () => filters.country !== '' || filters.sort !== null || filters.order !== null,
  );
  const panelId = useId();
  const onChangeRef = useRef(onChange);
  const typed = useRef(false);

  useEffect(() => {
    onChangeRef.current = onChange;
  });

  // The URL wins when it changes from outside (back button, a shared link).
  const [shownSearch, setShownSearch] = useState(filters.search);
  if (shownSearch !== filters.search) {
    setShownSearch(filters.search);
    if (text.trim() !== filters.search) setText(filters.search);
  }

  useEffect(() => {
    if (!typed.current) return;
    const timer = window.setTimeout(() => {
      typed.current = false;
      onChangeRef.current({ search: text.trim() });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  return (
    <div className="market-filters">
      <div className="market-filters__row">
        <label className="market-filters__search">
          <span className="sr-only">Search servers</span>
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M20 20l-3.5-3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <input
            className="input"
            type="search"
            placeholder="Search servers by name, location, or host..."
            maxLength={MARKET_SEARCH_MAX}
            value={text}
            onChange={(event) => {
              typed.current = true;
              setText(event.target.value);
            }}
            data-testid="market-search"
          />
        </label>
        <Button
          variant="secondary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          data-testid="market-filters-toggle"
        >
          {open ? 'Hide Filters' : 'Filters'}
        </Button>
      </div>
      {open && (
        <div id={panelId} className="card market-filters__panel" data-testid="market-filters">
          <label className="field">
            <span className="field__label">Country</span>
            <select
              className="input"
              value={filters.country}
              onChange={(event) => onChange({ country: event.target.value })}
            >
              <option value="">All Countries</option>
              {countries.map((code) => (
                <option key={code} value={code}>
                  {`${countryName(code)} (${code})`}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">Sort By</span>
            <select
              className="input"
              value={filters.sort ?? 'reliability'}
              onChange={(event) =>
                onChange({
                  sort: event.target.value as MarketSort,
                  order: filters.order ?? 'desc',
                })
              }
            >
              {SORT_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">Order</span>
            <select
              className="input"
              value={filters.order ?? 'desc'}
              onChange={(event) =>
                onChange({
                  sort: filters.sort ?? 'reliability',
                  order: event.target.value as MarketOrder,
                })
              }
            >
              <option value="desc">Best First</option>
              <option value="asc">Worst First</option>
            </select>
          </label>
        </div>
      )}
    </div>
  );
}
