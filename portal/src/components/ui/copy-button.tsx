import { useEffect, useRef, useState } from 'react';
import { Button, type ButtonSize, type ButtonVariant } from './button';
import './copy-button.css';

/** spec 01 §9: the copy confirmation shows for 2 s. */
const COPIED_MS = 2000;
/** spec 01 §5. */
export const CLIPBOARD_ERROR = 'Could not copy text to clipboard. Please try again.';

/**
 * Copies text. navigator.clipboard only exists in secure contexts, so a portal served over plain
 * HTTP (a self-hosted control plane on a LAN address) falls back to a hidden textarea.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy command failed');
}

export interface CopyButtonProps {
  text: string;
  label?: string;
  copiedLabel?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  'data-testid'?: string;
}

export function CopyButton({
  text,
  label = 'Copy',
  copiedLabel = 'Copied!',
  variant = 'secondary',
  size = 'sm',
  className,
  'data-testid': testId,
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onClick = async () => {
    setError(null);
    try {
      await copyText(text);
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      setError(CLIPBOARD_ERROR);
    }
  };

  return (
    <span className="copy-button">
      <Button
        variant={variant}
        size={size}
        className={className}
        onClick={() => void onClick()}
        data-testid={testId}
      >
        {copied ? copiedLabel : label}
      </Button>
      {error && (
        <span role="alert" className="copy-button__error">
          {error}
        </span>
      )}
    </span>
  );
}
