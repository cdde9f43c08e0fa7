import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { periodLabel } from '../earnings-periods';

export interface PeriodPickerProps {
  /** The month shown. */
  period: string;
  /** The months to choose from, newest first. */
  choices: readonly string[];
  disabled: boolean;
  onSelect: (period: string) => void;
}

/**
 * The month of the statement: a select of the months since the first server, and prev/next.
 * The chevrons ‹ › are bidi-mirrored characters: right to left, they turn round by themselves.
 */
export function PeriodPicker({ period, choices, disabled, onSelect }: PeriodPickerProps) {
  const { t, locale } = useT('earn');
  const id = useId();
  const at = choices.indexOf(period);
  const newer = at > 0 ? choices[at - 1] : undefined;
  const older = at >= 0 && at < choices.length - 1 ? choices[at + 1] : undefined;
  return (
    <div className="earnings-picker">
      <Button
        variant="ghost"
        size="sm"
        disabled={disabled || !older}
        onClick={() => older && onSelect(older)}
        aria-label={t('earnings.picker.previousLabel')}
        data-testid="earnings-previous"
      >
        <span aria-hidden="true">&lsaquo;</span> {t('earnings.picker.previous')}
      </Button>
      <label className="sr-only" htmlFor={id}>
        {t('earnings.picker.month')}
      </label>
      <select
        id={id}
        className="input earnings-picker__select"
        value={period}
        disabled={disabled}
        onChange={(event) => onSelect(event.target.value)}
        data-testid="earnings-period"
      >
        {(at < 0 ? [period, ...choices] : choices).map((choice) => (
          <option key={choice} value={choice}>
            {periodLabel(choice, locale)}
          </option>
        ))}
      </select>
      <Button
        variant="ghost"
        size="sm"
        disabled={disabled || !newer}
        onClick={() => newer && onSelect(newer)}
        aria-label={t('earnings.picker.nextLabel')}
        data-testid="earnings-next"
      >
        {t('earnings.picker.next')} <span aria-hidden="true">&rsaquo;</span>
      </Button>
    </div>
  );
}
