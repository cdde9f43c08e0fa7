import { Button } from '../../../components/ui/button';
import { selectionText } from '../market-rules';
import '../market.css';

export interface SelectionBarProps {
  count: number;
  onClear: () => void;
  onCreate: () => void;
}

/** spec 01 §2: only for a signed-in client with at least one selected server. */
export function SelectionBar({ count, onClear, onCreate }: SelectionBarProps) {
  if (count < 1) return null;
  return (
    <div className="market-selection-bar" role="region" aria-label="Selected servers">
      <div className="container market-selection-bar__inner">
        <p className="market-selection-bar__count" data-testid="selection-count">
          {selectionText(count)}
        </p>
        <div className="market-selection-bar__actions">
          <Button variant="ghost" onClick={onClear}>
            Clear
          </Button>
          <Button variant="primary" onClick={onCreate}>
            Create Subscription
          </Button>
        </div>
      </div>
    </div>
  );
}
