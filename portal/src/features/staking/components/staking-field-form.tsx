import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { StakingState } from '../staking-actions';
import { StakingNotice } from './staking-notice';

export interface StakingFieldFormProps {
  /** data-testid of the form; the notice's is `<noticePrefix>-<tone>`. */
  testId: string;
  noticePrefix: string;
  label: ReactNode;
  input: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'dir' | 'autoComplete'> & {
    'data-testid': string;
  };
  /** The buttons beside the input. */
  actions: ReactNode;
  notice: StakingState['notice'];
  onSubmit: () => void;
  /** What follows the notice inside the form (a confirmation dialog). */
  children?: ReactNode;
}

/**
 * The shape the stake and auto-stake forms share: a labelled number (written left to right in
 * every language), its buttons on one row, and the answer of the form's last action.
 */
export function StakingFieldForm({
  testId,
  noticePrefix,
  label,
  input,
  actions,
  notice,
  onSubmit,
  children,
}: StakingFieldFormProps) {
  const inputId = useId();
  return (
    <form
      className="staking-form"
      data-testid={testId}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label htmlFor={inputId} className="field__label">
        {label}
      </label>
      <div className="staking-form__row">
        <input id={inputId} dir="ltr" autoComplete="off" {...input} />
        {actions}
      </div>
      {notice && <StakingNotice notice={notice} testId={`${noticePrefix}-${notice.tone}`} />}
      {children}
    </form>
  );
}
