import { type ReactNode, useState } from 'react';
import { useT } from '../../lib/i18n/i18n';
import { Banner } from './banner';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What the confirm button says, and what it says while the work runs. */
  confirmLabel: string;
  busyLabel: string;
  variant?: 'primary' | 'danger';
  /** Does the work; a thrown Error's message shows in the dialog, which stays open. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** Shown when the work fails without a message. */
  fallbackError: string;
  children: ReactNode;
  'data-testid'?: string;
}

/**
 * A confirmation: Cancel (focused first) or the action. While the action runs neither button
 * works and the dialog cannot be closed; a failure shows its message, and the action may be
 * tried again.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  busyLabel,
  variant = 'primary',
  onConfirm,
  onClose,
  fallbackError,
  children,
  'data-testid': testId,
}: ConfirmDialogProps) {
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setBusy(false);
      onClose();
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof Error && failure.message ? failure.message : fallbackError);
    }
  };

  return (
    <Dialog open={open} onClose={close} title={title} size="sm" data-testid={testId}>
      {children}
      {error && (
        <Banner
          tone="error"
          data-testid={testId ? `${testId.replace(/-dialog$/, '')}-error` : undefined}
        >
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={close} disabled={busy} data-autofocus>
          {t('ui.cancel')}
        </Button>
        <Button variant={variant} onClick={() => void confirm()} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
