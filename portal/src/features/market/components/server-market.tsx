import type { MarketServer, SubscriptionCreationResponse } from '@scn/proto';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { networkText } from '../../../lib/reachability-display';
import { onRealtime } from '../../../lib/realtime';
import { type MarketFilters as Filters, parseFilters, serializeFilters } from '../market-query';
import { type MarketViewer, searchResults } from '../market-rules';
import {
  clearSelection,
  dismissSelectionError,
  loadCountries,
  loadServers,
  loadStats,
  refreshProcessing,
  setViewer,
  toggleSelection,
  useMarket,
} from '../store';
import { BackToTop } from './back-to-top';
import { MarketFilters } from './market-filters';
import { MarketStats } from './market-stats';
import { Pagination } from './pagination';
import { PurchaseDialogs } from './purchase-dialogs';
import { useReachabilityDialog } from './reachability-dialog';
import { SelectionBar } from './selection-bar';
import { ServerCard } from './server-card';
import '../market.css';

/** docs/product/constants.md#market-prices-and-limits: processing servers are polled every 1 s. */
export const PROCESSING_POLL_MS = 1000;

export interface ServerMarketProps {
  /** The signed-in account, or null for a visitor. */
  viewer: MarketViewer | null;
  /** Opens the sign-in flow for a client (the visitor's card action). */
  onSignIn: () => void;
  /** After View Subscription: the client dashboard takes it from here. */
  onViewSubscription: (result: SubscriptionCreationResponse) => void;
  /** docs/product/screens.md#the-shell-and-the-market-screens: the Promote button on an operator's own servers (the app composes the modal). */
  onPromote?: (server: MarketServer) => void;
}

/**
 * docs/product/screens.md#the-shell-and-the-market-screens "Server market": stats, search and filters, the card grid with pagination, the
 * selection bar and the purchase modals. The filters and page live in the URL's query string.
 */
export function ServerMarket({
  viewer,
  onSignIn,
  onViewSubscription,
  onPromote,
}: ServerMarketProps) {
  const { t } = useT();
  const market = useMarket();
  const reachability = useReachabilityDialog();
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => parseFilters(search), [search]);
  const queryKey = serializeFilters(filters);
  const [purchaseOpen, setPurchaseOpen] = useState(false);
  const isClient = viewer?.userType === 'client';
  const viewerUuid = viewer?.uuid ?? null;
  const viewerType = viewer?.userType ?? null;

  // The latest filters for the realtime handler, which is registered once.
  const filtersRef = useRef<Filters>(filters);
  useEffect(() => {
    filtersRef.current = filters;
  });

  useEffect(() => {
    setViewer(viewerUuid && viewerType ? { uuid: viewerUuid, userType: viewerType } : null);
  }, [viewerUuid, viewerType]);

  // The page of servers for the URL's filters; `viewerUuid` too: the Subscribed badges are
  // the session's.
  useEffect(() => {
    void loadServers(parseFilters(queryKey));
  }, [queryKey, viewerUuid]);

  useEffect(() => {
    void loadStats();
    void loadCountries();
    // docs/product/states.md#market-and-account-states "Server list refresh": a realtime event refetches the servers.
    return onRealtime('server-list-updated', () => {
      void loadServers(filtersRef.current, true);
      void loadStats();
    });
  }, []);

  // A client may come back within a cooldown (reload): ask once, then poll while any runs.
  useEffect(() => {
    if (isClient) void refreshProcessing();
  }, [isClient, viewerUuid]);

  const processingCount = Object.keys(market.processing).length;
  useEffect(() => {
    if (!isClient || processingCount === 0) return;
    const timer = window.setInterval(() => void refreshProcessing(), PROCESSING_POLL_MS);
    return () => window.clearInterval(timer);
  }, [isClient, processingCount]);

  const go = useCallback(
    (next: Filters, replace: boolean) => {
      const query = serializeFilters(next);
      navigate(query ? `${paths.servers}?${query}` : paths.servers, { replace });
    },
    [navigate],
  );

  const changeFilters = (change: Partial<Omit<Filters, 'page'>>) => {
    // Typing replaces the history entry; a picked filter is a step the back button undoes.
    go({ ...filters, ...change, page: 1 }, 'search' in change);
  };

  const changePage = (page: number) => {
    go({ ...filters, page }, false);
    window.scrollTo({ top: 0 });
  };

  const onToggle = useCallback(
    (server: MarketServer) => void toggleSelection(server, viewer),
    [viewer],
  );

  const selected = Object.values(market.selected);
  const loading = market.status === 'loading' || market.status === 'idle';

  const onPurchased = () => {
    clearSelection();
    void loadServers(filtersRef.current, true);
    void loadStats();
  };

  return (
    <div className={`server-market${isClient && selected.length > 0 ? ' server-market--bar' : ''}`}>
      <MarketStats stats={market.stats} />
      <MarketFilters filters={filters} countries={market.countries} onChange={changeFilters} />
      <MarketNetwork />

      {market.selectionError && <SelectionError message={market.selectionError} />}

      {loading ? (
        <div className="page-loading market-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('market.loading')}</span>
        </div>
      ) : market.status === 'error' ? (
        <div className="stack" data-testid="market-error">
          <Banner tone="error">{market.error}</Banner>
          <div>
            <Button variant="secondary" onClick={() => void loadServers(filters)}>
              {t('market.tryAgain')}
            </Button>
          </div>
        </div>
      ) : market.servers.length === 0 ? (
        <MarketEmpty reachable={filters.reachable} />
      ) : (
        <>
          {filters.search && <MarketResults total={market.total} capped={market.totalCapped} />}
          <div className="market-grid" data-testid="market-grid">
            {market.servers.map((server, index) => (
              <ServerCard
                key={server.id}
                server={server}
                viewer={viewer}
                index={index}
                state={{
                  selected: server.id in market.selected,
                  processingSeconds: market.processing[server.id],
                }}
                onToggle={onToggle}
                onSignIn={onSignIn}
                onPromote={onPromote}
                onShowReachability={reachability.show}
              />
            ))}
          </div>
        </>
      )}

      {!loading && market.status === 'ready' && (
        <Pagination
          page={Math.min(filters.page, market.totalPages)}
          totalPages={market.totalPages}
          onPage={changePage}
        />
      )}

      <BackToTop />
      {reachability.dialog}

      {isClient && viewer && (
        <>
          <SelectionBar
            count={selected.length}
            onClear={clearSelection}
            onCreate={() => setPurchaseOpen(true)}
          />
          <PurchaseDialogs
            open={purchaseOpen}
            clientUuid={viewer.uuid}
            servers={selected}
            onClose={() => setPurchaseOpen(false)}
            onPurchased={onPurchased}
            onViewSubscription={(result) => {
              setPurchaseOpen(false);
              onViewSubscription(result);
            }}
          />
        </>
      )}
    </div>
  );
}

/** Why the last pick did not take, until dismissed. */
function SelectionError({ message }: { message: string }) {
  const { t } = useT();
  return (
    <div className="market-notice">
      <Banner tone="error" data-testid="selection-error">
        {message}
      </Banner>
      <Button variant="ghost" size="sm" onClick={dismissSelectionError}>
        {t('market.dismiss')}
      </Button>
    </div>
  );
}

/** The visitor's network, named once: every card's badge is measured from here. */
function MarketNetwork() {
  const { locale } = useT();
  const { network } = useMarket();
  const text = networkText(network, locale);
  if (!text) return null;
  return (
    <p className="market-network small muted" data-testid="market-network">
      <Trans
        i18nKey="reach.yourNetwork"
        values={{ network: text }}
        components={{ bdi: <bdi data-testid="market-network-name" /> }}
      />
    </p>
  );
}

/** docs/product/screens.md#the-shell-and-the-market-screens: no server matches the search and filters. */
/** How many servers a search found: "More than 1,000" past the cap, in the reader's digits. */
function MarketResults({ total, capped }: { total: number; capped: boolean }) {
  const { t, locale } = useT();
  const { key, count } = searchResults(total, capped);
  return (
    <p className="market-results" data-testid="market-results">
      {t(key, { count, shown: formatNumber(count, locale) })}
    </p>
  );
}

function MarketEmpty({ reachable }: { reachable: boolean }) {
  const { t } = useT();
  return (
    <div className="empty-state card" data-testid="servers-empty">
      <h2>{t('market.empty.title')}</h2>
      <p>{reachable ? t('reach.emptyFiltered') : t('market.empty.text')}</p>
    </div>
  );
}
