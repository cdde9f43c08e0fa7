import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: ReactNode;
  /** A line under the input, linked as its description. */
  hint?: ReactNode;
  /** Beside the input in one group (a button that acts on it). */
  addon?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input of the portal's forms: label, input, an optional addon and hint. */
export function TextField({
  id,
  label,
  hint,
  addon,
  inputRef,
  className,
  ...input
}: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const field = (
    <input
      ref={inputRef}
      id={id}
      className={className ? `input ${className}` : 'input'}
      aria-describedby={hintId}
      {...input}
    />
  );
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {addon ? (
        <div className="input-group">
          {field}
          {addon}
        </div>
      ) : (
        field
      )}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
