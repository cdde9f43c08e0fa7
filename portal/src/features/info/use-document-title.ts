import { useEffect } from 'react';

const SITE_NAME = 'Secure Connection Network';

/** Sets the tab title while an info page is shown, and restores the previous one afterwards. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} | ${SITE_NAME}`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
