import type { FormEvent, ReactNode } from 'react';
import { Banner, type BannerTone } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';

export interface AuthNotice {
  tone: BannerTone;
  text: string;
}

export interface AuthFormDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  notice: AuthNotice | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The line under the form that switches to the other dialog or mode. */
  footer: ReactNode;
  testId: string;
  children: ReactNode;
}

/**
 * The frame the sign-in / sign-up dialog and the password-reset dialog share: a small dialog, the
 * outcome of the last action as a banner (announced), the form, and a footer line.
 */
export function AuthFormDialog({
  open,
  onClose,
  title,
  description,
  notice,
  onSubmit,
  footer,
  testId,
  children,
}: AuthFormDialogProps) {
  const prefix = testId.replace(/-dialog$/, '');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      size="sm"
      data-testid={testId}
    >
      {notice && (
        <Banner tone={notice.tone} data-testid={`${prefix}-message`}>
          {notice.text}
        </Banner>
      )}
      <form className="form" onSubmit={onSubmit} noValidate>
        {children}
      </form>
      <p className="dialog__footer-text">{footer}</p>
    </Dialog>
  );
}
