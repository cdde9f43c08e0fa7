import { Button } from '../../../components/ui/button';
import { pageItems } from '../market-rules';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import '../market.css';

export interface PaginationProps {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}

/** docs/product/screens.md#the-shell-and-the-market-screens: Previous, numbered pages, Next; only when there is more than one page. */
export function Pagination({ page, totalPages, onPage }: PaginationProps) {
  const { t, locale } = useT();
  if (totalPages <= 1) return null;
  return (
    <nav
      className="market-pagination"
      aria-label={t('market.pagination.label')}
      data-testid="market-pagination"
    >
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('market.pagination.previous')}
      </Button>
      {pageItems(page, totalPages).map((item, index) =>
        item === 'gap' ? (
          <span key={`gap-${index}`} className="market-pagination__gap" aria-hidden="true">
            …
          </span>
        ) : (
          <Button
            key={item}
            variant={item === page ? 'primary' : 'ghost'}
            size="sm"
            aria-current={item === page ? 'page' : undefined}
            aria-label={t('market.pagination.page', { page: formatNumber(item, locale) })}
            onClick={() => item !== page && onPage(item)}
          >
            {formatNumber(item, locale)}
          </Button>
        ),
      )}
      <Button
        variant="secondary"
        size="sm"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        {t('market.pagination.next')}
      </Button>
    </nav>
  );
}
