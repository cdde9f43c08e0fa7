import { useCallback, useEffect, useState } from 'react';

function indexOfHash(hashes: readonly string[]): number {
  const index = hashes.indexOf(window.location.hash.replace(/^#/, ''));
  return index === -1 ? 0 : index;
}

/**
 * A tab index kept in the URL hash (docs/product/screens.md#dashboards-and-information-pages/docs/product/states.md#subscription-and-reliability-states): the hash selects the tab on load and on
 * hashchange (first tab by default); selecting a tab replaces the history entry, so tab
 * switches never pile up in the back button.
 */
export function useHashTab(hashes: readonly string[]): [number, (index: number) => void] {
  const [index, setIndex] = useState(() => indexOfHash(hashes));

  useEffect(() => {
    const onHashChange = () => setIndex(indexOfHash(hashes));
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [hashes]);

  const select = useCallback(
    (next: number) => {
      const hash = hashes[next];
      if (hash === undefined) return;
      setIndex(next);
      const { pathname, search } = window.location;
      window.history.replaceState(window.history.state, '', `${pathname}${search}#${hash}`);
    },
    [hashes],
  );

  return [index, select];
}
