import { useEffect, useState } from 'react';
import { showBackToTop } from '../market-rules';
import { useT } from '../../../lib/i18n/i18n';
import '../market.css';

/** docs/product/screens.md#the-shell-and-the-market-screens, docs/product/constants.md#market-prices-and-limits: appears after more than 300 px of scrolling. */
export function BackToTop() {
  const { t } = useT();
  const [visible, setVisible] = useState(() => showBackToTop(window.scrollY));

  useEffect(() => {
    const onScroll = () => setVisible(showBackToTop(window.scrollY));
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  if (!visible) return null;
  return (
    <button
      type="button"
      className="market-back-to-top"
      aria-label={t('market.backToTop')}
      data-testid="back-to-top"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          d="M12 19V5M5 12l7-7 7 7"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
