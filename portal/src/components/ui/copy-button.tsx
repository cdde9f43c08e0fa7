import { useEffect, useRef, useState } from 'react';
import { useT } from '../../lib/i18n/i18n';
import { Button, type ButtonSize, type ButtonVariant } from './button';
import './copy-button.css';

/** docs/product/constants.md#market-prices-and-limits: the copy confirmation shows for 2 s. */
const COPIED_MS = 2000;

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
  /** Defaults to "Copy" and "Copied!" in the reader's language. */
  label?: string;
  copiedLabel?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  'data-testid'?: string;
}

export function CopyButton({
  text,
  label,
  copiedLabel,
  variant = 'secondary',
  size = 'sm',
  className,
  'data-testid': testId,
}: CopyButtonProps) {
  const { t } = useT();
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
      setError(t('ui.clipboardError'));
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
        {copied ? (copiedLabel ?? t('ui.copied')) : (label ?? t('ui.copy'))}
      </Button>
      {error && (
        <span role="alert" className="copy-button__error">
          {error}
        </span>
      )}
    </span>
  );
}
