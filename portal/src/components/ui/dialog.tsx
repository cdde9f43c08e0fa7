import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../../lib/i18n/i18n';
import './dialog.css';

/*
 * Modal dialogs. Every open dialog renders into its own container at the end of <body>; the
 * topmost one is the only part of the page that is interactive or visible to assistive
 * technology: everything else gets `inert` and aria-hidden. Escape closes the topmost dialog,
 * Tab cycles inside it, the first field takes focus on open, and focus returns on close.
 */

const openStack: HTMLElement[] = [];
const MARK = 'data-dialog-inert';

function syncBackground(): void {
  const top = openStack[openStack.length - 1];
  for (const child of Array.from(document.body.children)) {
    if (!(child instanceof HTMLElement) || child.tagName === 'SCRIPT') continue;
    const hide = top !== undefined && child !== top;
    if (hide && !child.hasAttribute(MARK) && !child.inert) {
      child.inert = true;
      child.setAttribute('aria-hidden', 'true');
      child.setAttribute(MARK, '');
    } else if (!hide && child.hasAttribute(MARK)) {
      child.inert = false;
      child.removeAttribute('aria-hidden');
      child.removeAttribute(MARK);
    }
  }
  document.documentElement.classList.toggle('has-dialog', top !== undefined);
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.getClientRects().length > 0,
  );
}

export type DialogSize = 'sm' | 'md' | 'lg';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Short text under the title, linked as the dialog's description. */
  description?: ReactNode;
  size?: DialogSize;
  /** Whether a click on the backdrop closes the dialog (default true). */
  closeOnBackdrop?: boolean;
  className?: string;
  'data-testid'?: string;
}

export function Dialog(props: DialogProps) {
  // The layer is mounted only while open, so each opening starts from a clean slate.
  return props.open ? <DialogLayer {...props} /> : null;
}

function DialogLayer({
  onClose,
  title,
  children,
  description,
  size = 'md',
  closeOnBackdrop = true,
  className,
  'data-testid': testId,
}: DialogProps) {
  const { t } = useT();
  const [container] = useState(() => {
    const element = document.createElement('div');
    element.className = 'dialog-root';
    return element;
  });
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const titleId = useId();
  const descriptionId = useId();

  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });

  useLayoutEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    document.body.appendChild(container);
    openStack.push(container);
    syncBackground();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || openStack[openStack.length - 1] !== container) return;
      event.preventDefault();
      onCloseRef.current();
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = openStack.indexOf(container);
      if (index >= 0) openStack.splice(index, 1);
      container.remove();
      syncBackground();
      if (previous?.isConnected && !previous.closest('[inert]')) previous.focus();
    };
  }, [container]);

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const first =
      panel.querySelector<HTMLElement>('[data-autofocus]') ??
      panel.querySelector<HTMLElement>(
        '.dialog__body input:not([disabled]):not([type="hidden"]):not([type="checkbox"]), .dialog__body select, .dialog__body textarea',
      ) ??
      focusables(panel).find((el) => !el.classList.contains('dialog__close')) ??
      panel;
    first.focus();
  }, []);

  const onPanelKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = focusables(panelRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (closeOnBackdrop && event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={['dialog', `dialog--${size}`, className ?? ''].filter(Boolean).join(' ')}
        onKeyDown={onPanelKeyDown}
        data-testid={testId}
      >
        <div className="dialog__header">
          <div>
            <h2 id={titleId} className="dialog__title">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="dialog__description">
                {description}
              </p>
            )}
          </div>
          <button
            type="button"
            className="dialog__close"
            aria-label={t('ui.closeDialog')}
            onClick={onClose}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                d="M6 6l12 12M18 6L6 18"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </button>
        </div>
        <div className="dialog__body">{children}</div>
      </div>
    </div>,
    container,
  );
}
