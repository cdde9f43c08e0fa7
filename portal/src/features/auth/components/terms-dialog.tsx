import { Suspense, useState } from 'react';
import { Trans } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n/i18n';
import '../auth.css';

export interface TermsDialogProps {
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onAccept: (accepted: { acceptedTerms: boolean; acceptedPrivacy: boolean }) => void;
}

/** The summaries of docs/product/screens.md#the-shell-and-the-market-screens, one message each (`locales/legal`, `dialog.*`). */
const TERMS_SUMMARY = [
  'dialog.terms.account',
  'dialog.terms.use',
  'dialog.terms.protection',
  'dialog.terms.changes',
  'dialog.terms.termination',
  'dialog.terms.warranty',
] as const;

const PRIVACY_SUMMARY = [
  'dialog.privacy.sharing',
  'dialog.privacy.noLogs',
  'dialog.privacy.minimal',
  'dialog.privacy.rights',
] as const;

/** docs/product/screens.md#the-shell-and-the-market-screens "Terms dialog": both boxes must be ticked before 'Accept & Continue'. */
export function TermsDialog(props: TermsDialogProps) {
  // Its words are the legal catalogue, fetched when the dialog first opens: the dialog waits
  // for them in a boundary of its own, so the page behind it never falls back.
  return props.open ? (
    <Suspense fallback={null}>
      <TermsDialogLayer {...props} />
    </Suspense>
  ) : null;
}

function TermsDialogLayer({ open, pending, onCancel, onAccept }: TermsDialogProps) {
  const { t } = useT('legal');
  const cancel = () => {
    if (!pending) onCancel();
  };
  return (
    <Dialog
      open={open}
      onClose={cancel}
      title={t('dialog.title')}
      size="lg"
      closeOnBackdrop={false}
    >
      {/* Mounted only while open, so the boxes start unticked every time. */}
      <TermsForm pending={pending} onCancel={cancel} onAccept={onAccept} />
    </Dialog>
  );
}

function TermsForm({ pending, onCancel, onAccept }: Omit<TermsDialogProps, 'open'>) {
  const { t } = useT('legal');
  const [acceptedTerms, setAcceptedTerms] = useState(false);
  const [acceptedPrivacy, setAcceptedPrivacy] = useState(false);

  return (
    <>
      <p className="muted">{t('dialog.intro')}</p>
      <div className="terms-summary" tabIndex={0} aria-label={t('dialog.summaryLabel')}>
        <h3>{t('dialog.termsHeading')}</h3>
        <ul>
          {TERMS_SUMMARY.map((key) => (
            <li key={key}>
              <Trans ns="legal" i18nKey={key} components={{ strong: <strong /> }} />
            </li>
          ))}
        </ul>
        <h3>{t('dialog.privacyHeading')}</h3>
        <ul>
          {PRIVACY_SUMMARY.map((key) => (
            <li key={key}>
              <Trans ns="legal" i18nKey={key} components={{ strong: <strong /> }} />
            </li>
          ))}
        </ul>
      </div>
      <div className="checkbox-list">
        <div className="checkbox">
          <input
            id="accept-terms"
            type="checkbox"
            checked={acceptedTerms}
            disabled={pending}
            onChange={(event) => setAcceptedTerms(event.target.checked)}
            data-autofocus
          />
          <label htmlFor="accept-terms">
            <Trans
              ns="legal"
              i18nKey="dialog.acceptTerms"
              components={{
                link: <a href={paths.terms} target="_blank" rel="noopener noreferrer" />,
              }}
            />
          </label>
        </div>
        <div className="checkbox">
          <input
            id="accept-privacy"
            type="checkbox"
            checked={acceptedPrivacy}
            disabled={pending}
            onChange={(event) => setAcceptedPrivacy(event.target.checked)}
          />
          <label htmlFor="accept-privacy">
            <Trans
              ns="legal"
              i18nKey="dialog.acceptPrivacy"
              components={{
                link: <a href={paths.privacyPolicy} target="_blank" rel="noopener noreferrer" />,
              }}
            />
          </label>
        </div>
      </div>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          {t('dialog.cancel')}
        </Button>
        <Button
          variant="primary"
          disabled={!acceptedTerms || !acceptedPrivacy || pending}
          onClick={() => onAccept({ acceptedTerms, acceptedPrivacy })}
        >
          {pending ? t('dialog.processing') : t('dialog.accept')}
        </Button>
      </div>
    </>
  );
}
