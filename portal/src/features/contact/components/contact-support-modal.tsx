import { contactRequestSchema } from '@scn/proto';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { SUPPORT_EMAIL } from '../../../config/env';
import { paths } from '../../../config/paths';
import { useApiErrorMessage } from '../../../lib/api-error-message';
import { useT } from '../../../lib/i18n/i18n';
import { sendContact } from '../api/send-contact';
import '../contact.css';

export interface ContactSupportModalProps {
  open: boolean;
  onClose: () => void;
  /** Pre-fills the email field, e.g. with the signed-in user's address. */
  defaultEmail?: string;
}

/**
 * The contact support dialog (docs/product/screens.md#dashboards-and-information-pages): email, subject and message, all required.
 * The Dialog gives role="dialog", aria-modal, the title as its label, Escape to close and
 * focus on the first field.
 */
export function ContactSupportModal({
  open,
  onClose,
  defaultEmail = '',
}: ContactSupportModalProps) {
  const { t } = useT('support');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('contact.title')}
      description={t('contact.description')}
      className="contact-modal"
      data-testid="contact-modal"
    >
      {/* Mounted only while open, so every opening starts with a fresh form. */}
      {open ? <ContactForm onClose={onClose} defaultEmail={defaultEmail} /> : null}
    </Dialog>
  );
}

type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'error'; message: string }
  | { kind: 'sent'; message: string };

/** docs/product/states.md#subscription-and-reliability-states: after a successful send the message shows and the modal closes after 3 s. */
const CLOSE_AFTER_SENT_MS = 3000;

/** The form's limits (proto's contactRequestSchema). */
const SUBJECT_MAX = 200;
const MESSAGE_MAX = 5000;

type InvalidKey =
  | 'emailRequired'
  | 'email'
  | 'subjectRequired'
  | 'subjectTooLong'
  | 'messageRequired'
  | 'messageTooLong';

/** Which rule the first invalid field breaks, read from the field (never from English text). */
export function invalidKey(
  field: unknown,
  values: { email: string; subject: string; message: string },
): InvalidKey {
  if (field === 'subject') return values.subject.trim() ? 'subjectTooLong' : 'subjectRequired';
  if (field === 'message') return values.message.trim() ? 'messageTooLong' : 'messageRequired';
  return values.email.trim() ? 'email' : 'emailRequired';
}

function ContactForm({ onClose, defaultEmail }: { onClose: () => void; defaultEmail: string }) {
  const { t } = useT('support');
  const errorMessage = useApiErrorMessage();
  const id = useId();
  const [email, setEmail] = useState(defaultEmail);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // The auto-close timer must not restart when the parent passes a new onClose function.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

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
      const key = invalidKey(parsed.error.issues[0]?.path[0], { email, subject, message });
      const max = key === 'subjectTooLong' ? SUBJECT_MAX : MESSAGE_MAX;
      setStatus({ kind: 'error', message: t(`contact.invalid.${key}`, { max }) });
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      await sendContact(parsed.data);
      setStatus({ kind: 'sent', message: t('contact.sent') });
    } catch (error) {
      // The address kept left to right inside Persian text (Unicode isolates).
      const failed = t('contact.failed', { email: `\u2068${SUPPORT_EMAIL}\u2069` });
      setStatus({ kind: 'error', message: errorMessage(error, failed) });
    }
  };

  const busy = status.kind === 'sending';
  const done = status.kind === 'sent';

  return (
    <>
      <form className="form contact-form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-email`}>
            {t('contact.email')}
          </label>
          <input
            id={`${id}-email`}
            className="input"
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
        <div className="field">
          <label className="field__label" htmlFor={`${id}-subject`}>
            {t('contact.subject')}
          </label>
          <input
            id={`${id}-subject`}
            className="input"
            name="subject"
            type="text"
            required
            maxLength={SUBJECT_MAX}
            value={subject}
            onChange={(event) => setSubject(event.target.value)}
            disabled={done}
            placeholder={t('contact.subjectPlaceholder')}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-message`}>
            {t('contact.message')}
          </label>
          <textarea
            id={`${id}-message`}
            className="input"
            name="message"
            required
            rows={5}
            maxLength={MESSAGE_MAX}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            disabled={done}
            placeholder={t('contact.messagePlaceholder')}
          />
        </div>

        {status.kind === 'error' ? (
          <Banner tone="error" data-testid="contact-error">
            {status.message}
          </Banner>
        ) : null}
        {status.kind === 'sent' ? (
          <Banner tone="success" data-testid="contact-success">
            {status.message}
          </Banner>
        ) : null}

        <div className="contact-form__actions">
          <Button variant="secondary" onClick={onClose}>
            {t('contact.cancel')}
          </Button>
          <Button type="submit" disabled={busy || done} aria-busy={busy}>
            {busy ? t('contact.sending') : t('contact.send')}
          </Button>
        </div>
      </form>

      <p className="dialog__footer-text contact-form__footer">
        <Trans
          ns="support"
          i18nKey="contact.footer"
          components={{
            email: (
              <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr">
                {SUPPORT_EMAIL}
              </a>
            ),
            support: <Link href={paths.support} onClick={onClose} />,
          }}
        />
      </p>
    </>
  );
}
