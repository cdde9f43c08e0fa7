import { CONTACT_MESSAGES, contactRequestSchema, firstIssueMessage } from '@scn/proto';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../../config/env';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { CONTACT_FAILED_MESSAGE, sendContact } from '../api/send-contact';

export interface ContactSupportModalProps {
  open: boolean;
  onClose: () => void;
  /** Pre-fills the email field, e.g. with the signed-in user's address. */
  defaultEmail?: string;
}

type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'error'; message: string }
  | { kind: 'sent'; message: string };

/** spec 02 §4: after a successful send the message shows and the modal closes after 3 s. */
const CLOSE_AFTER_SENT_MS = 3000;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The contact support dialog (spec 02 §2): email, subject and message, all required. */
export function ContactSupportModal({ open, onClose, defaultEmail = '' }: ContactSupportModalProps) {
  if (!open) return null;
  return createPortal(<ContactDialog onClose={onClose} defaultEmail={defaultEmail} />, document.body);
}

function ContactDialog({ onClose, defaultEmail }: { onClose: () => void; defaultEmail: string }) {
  const id = useId();
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;
  const dialogRef = useRef<HTMLDivElement>(null);
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(defaultEmail);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // The auto-close timer must not restart when the parent passes a new onClose function.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  // Focus the first field on open; give focus back to whatever opened the dialog on close.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    firstFieldRef.current?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  useEffect(() => {
    if (status.kind !== 'sent') return;
    const timer = window.setTimeout(() => onCloseRef.current(), CLOSE_AFTER_SENT_MS);
    return () => window.clearTimeout(timer);
  }, [status.kind]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status.kind === 'sending' || status.kind === 'sent') return;
    const parsed = contactRequestSchema.safeParse({ email, subject, message });
    if (!parsed.success) {
      setStatus({ kind: 'error', message: firstIssueMessage(parsed.error) });
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      await sendContact(parsed.data);
      setStatus({ kind: 'sent', message: CONTACT_MESSAGES.sent });
    } catch (error) {
      const text = error instanceof ApiError && error.message ? error.message : CONTACT_FAILED_MESSAGE;
      setStatus({ kind: 'error', message: text });
    }
  };

  // Escape closes; Tab cycles inside the dialog.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const busy = status.kind === 'sending';
  const done = status.kind === 'sent';

  return (
    <div
      className="contact-modal__backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className="contact-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={onKeyDown}
      >
        <div className="contact-modal__header">
          <h2 id={titleId} className="contact-modal__title">
            Contact Support
          </h2>
          <button type="button" className="contact-modal__close" onClick={onClose} aria-label="Close">
            <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <path d="M5 5l10 10M15 5 5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <p id={descriptionId} className="contact-modal__description">
          Tell us what happened and we will reply by email, usually within 24-48 hours.
        </p>

        <form className="contact-modal__form" onSubmit={submit} noValidate>
          <div className="contact-modal__field">
            <label htmlFor={`${id}-email`}>Email</label>
            <input
              ref={firstFieldRef}
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              disabled={done}
              placeholder="you@example.com"
            />
          </div>
          <div className="contact-modal__field">
            <label htmlFor={`${id}-subject`}>Subject</label>
            <input
              id={`${id}-subject`}
              name="subject"
              type="text"
              required
              maxLength={200}
              value={subject}
              onChange={(event) => setSubject(event.target.value)}
              disabled={done}
              placeholder="What do you need help with?"
            />
          </div>
          <div className="contact-modal__field">
            <label htmlFor={`${id}-message`}>Message</label>
            <textarea
              id={`${id}-message`}
              name="message"
              required
              rows={5}
              maxLength={5000}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              disabled={done}
              placeholder="Describe the issue, the server or subscription involved, and what you expected."
            />
          </div>

          {status.kind === 'error' ? (
            <p className="contact-modal__alert contact-modal__alert--error" role="alert">
              {status.message}
            </p>
          ) : null}
          {status.kind === 'sent' ? (
            <p className="contact-modal__alert contact-modal__alert--success" role="status">
              {status.message}
            </p>
          ) : null}

          <div className="contact-modal__actions">
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy || done} aria-busy={busy}>
              {busy ? 'Sending...' : 'Send Message'}
            </button>
          </div>
        </form>

        <p className="contact-modal__footer">
          Prefer email? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or visit the{' '}
          <Link href={paths.support} onClick={onClose}>
            Support page
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
