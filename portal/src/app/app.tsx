import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'wouter';
import { initSession } from '../features/session/store';
import { queryClient } from '../lib/query-client';
import { ErrorBoundary } from './error-boundary';
import { AppRouter } from './router';
import { Shell } from './shell/shell';

/** docs/product/screens.md#the-shell-and-the-market-screens: pages animate on transition; each new page starts at the top. */
function AnimatedRoutes() {
  const [location] = useLocation();

  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);

  return (
    <div key={location} className="page-transition">
      <AppRouter />
    </div>
  );
}

export function App() {
  useEffect(() => {
    void initSession();
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary>
        <Shell>
          <AnimatedRoutes />
        </Shell>
      </ErrorBoundary>
    </QueryClientProvider>
  );
}
