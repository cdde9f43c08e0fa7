import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import '../market.css';

export interface SelectionBarProps {
  count: number;
  onClear: () => void;
  onCreate: () => void;
}

/** docs/product/screens.md#the-shell-and-the-market-screens: only for a signed-in client with at least one selected server. */
export function SelectionBar({ count, onClear, onCreate }: SelectionBarProps) {
  const { t } = useT();
  if (count < 1) return null;
  return (
    <div className="market-selection-bar" role="region" aria-label={t('market.selection.label')}>
      <div className="container market-selection-bar__inner">
        <p className="market-selection-bar__count" data-testid="selection-count">
          {t('market.selection.count', { count })}
        </p>
        <div className="market-selection-bar__actions">
          <Button variant="ghost" onClick={onClear}>
            {t('market.selection.clear')}
          </Button>
          <Button variant="primary" onClick={onCreate}>
            {t('market.selection.create')}
          </Button>
        </div>
      </div>
    </div>
  );
}
