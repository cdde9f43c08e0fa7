import { MARKET_SEARCH_MAX, type MarketOrder, type MarketSort } from '@scn/proto';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { INTL_TAGS, type Locale } from '../../../lib/i18n/locale';
import type { MarketFilters as Filters } from '../market-query';
import '../market.css';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 350;

const SORT_OPTIONS: readonly MarketSort[] = ['reliability', 'ping', 'uptime', 'price'];

const regionNames = new Map<Locale, Intl.DisplayNames | null>();

/** A country's name in the reader's language (the browser's own CLDR names), else its code. */
function countryName(code: string, locale: Locale): string {
  if (!regionNames.has(locale)) {
    try {
      regionNames.set(locale, new Intl.DisplayNames([INTL_TAGS[locale]], { type: 'region' }));
    } catch {
      regionNames.set(locale, null);
    }
  }
  try {
    return regionNames.get(locale)?.of(code) ?? code;
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
 * docs/product/screens.md#the-shell-and-the-market-screens: the search box (debounced) and the Filters toggle with Country, Sort By and Order
 * (Best First = desc, Worst First = asc); "Works from my network" (`reachable=works`) beside them.
 */
export function MarketFilters({ filters, countries, onChange }: MarketFiltersProps) {
  const { t, locale } = useT();
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
          <span className="sr-only">{t('market.filters.searchLabel')}</span>
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M20 20l-3.5-3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <input
            className="input"
            type="search"
            placeholder={t('market.filters.searchPlaceholder')}
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
          {open ? t('market.filters.hide') : t('market.filters.show')}
        </Button>
        {/* In the row, not the panel: the filter a person behind a block needs first. */}
        <label className="market-filters__reachable">
          <input
            type="checkbox"
            checked={filters.reachable}
            onChange={(event) => onChange({ reachable: event.target.checked })}
            data-testid="market-filter-reachable"
          />
          {t('reach.filter')}
        </label>
      </div>
      {open && (
        <div id={panelId} className="card market-filters__panel" data-testid="market-filters">
          <label className="field">
            <span className="field__label">{t('market.filters.country')}</span>
            <select
              className="input"
              value={filters.country}
              onChange={(event) => onChange({ country: event.target.value })}
            >
              <option value="">{t('market.filters.allCountries')}</option>
              {countries.map((code) => (
                <option key={code} value={code}>
                  {`${countryName(code, locale)} (${code})`}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">{t('market.filters.sortBy')}</span>
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
                <option key={option} value={option}>
                  {t(`market.filters.sort.${option}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">{t('market.filters.order')}</span>
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
              <option value="desc">{t('market.filters.bestFirst')}</option>
              <option value="asc">{t('market.filters.worstFirst')}</option>
            </select>
          </label>
        </div>
      )}
    </div>
  );
}
