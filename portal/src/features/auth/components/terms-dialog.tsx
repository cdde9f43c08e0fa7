import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { paths } from '../../../config/paths';
import '../auth.css';

export interface TermsDialogProps {
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onAccept: (accepted: { acceptedTerms: boolean; acceptedPrivacy: boolean }) => void;
}

const TERMS_SUMMARY: Array<{ title: string; text: string }> = [
  {
    title: 'Account responsibilities',
    text: 'You keep your credentials secret, give us a working e-mail address and are responsible for everything done with your account.',
  },
  {
    title: 'Acceptable use',
    text: 'No illegal activity, fraud, abuse of other users or operators, attacks on the network, or attempts to resell or misrepresent the service.',
  },
  {
    title: 'Protection commitment',
    text: 'We build the network to protect your connection: encrypted transport, DPI resistance and a strict no-logs policy on our side.',
  },
  {
    title: 'Service changes',
    text: 'Features, prices and supported platforms may change as the network grows; material changes are announced at least 30 days ahead.',
  },
  {
    title: 'Termination',
    text: 'You can stop using the service at any time. Accounts that break these terms can be suspended or closed, and fraudulent balances forfeited.',
  },
  {
    title: 'Warranty disclaimer',
    text: 'The service is provided "as is". Node operators are independent, and we cannot guarantee uninterrupted or error-free access.',
  },
];

const PRIVACY_SUMMARY: Array<{ title: string; text: string }> = [
  {
    title: 'No data sharing',
    text: 'We do not sell, rent or trade your personal information.',
  },
  {
    title: 'No-logs policy',
    text: 'We do not record browsing history, destinations, traffic content, IP addresses or session data of your connections.',
  },
  {
    title: 'Minimal data collection',
    text: 'We keep only what running your account needs: your e-mail, credentials and the records of your payments and subscriptions.',
  },
  {
    title: 'Your rights',
    text: 'You may access, correct, delete, restrict or export your data, and object to its processing, by contacting support.',
  },
];

/** spec 01 §2 "Terms dialog": both boxes must be ticked before 'Accept & Continue'. */
export function TermsDialog({ open, pending, onCancel, onAccept }: TermsDialogProps) {
  const cancel = () => {
    if (!pending) onCancel();
  };
  return (
    <Dialog open={open} onClose={cancel} title="Terms & Policies" size="lg" closeOnBackdrop={false}>
      {/* Mounted only while open, so the boxes start unticked every time. */}
      <TermsForm pending={pending} onCancel={cancel} onAccept={onAccept} />
    </Dialog>
  );
}

function TermsForm({ pending, onCancel, onAccept }: Omit<TermsDialogProps, 'open'>) {
  const [acceptedTerms, setAcceptedTerms] = useState(false);
  const [acceptedPrivacy, setAcceptedPrivacy] = useState(false);

  return (
    <>
      <p className="muted">
        Please review the summaries below. Creating an account requires accepting both documents.
      </p>
      <div
        className="terms-summary"
        tabIndex={0}
        aria-label="Summary of the Terms of Service and Protection Policy"
      >
        <h3>Terms of Service</h3>
        <ul>
          {TERMS_SUMMARY.map((item) => (
            <li key={item.title}>
              <strong>{item.title}.</strong> {item.text}
            </li>
          ))}
        </ul>
        <h3>Protection Policy</h3>
        <ul>
          {PRIVACY_SUMMARY.map((item) => (
            <li key={item.title}>
              <strong>{item.title}.</strong> {item.text}
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
            I have read and agree to the{' '}
            <a href={paths.terms} target="_blank" rel="noopener noreferrer">
              Terms of Service
            </a>
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
            I have read and agree to the{' '}
            <a href={paths.privacyPolicy} target="_blank" rel="noopener noreferrer">
              Protection Policy
            </a>
          </label>
        </div>
      </div>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button
          variant="primary"
          disabled={!acceptedTerms || !acceptedPrivacy || pending}
          onClick={() => onAccept({ acceptedTerms, acceptedPrivacy })}
        >
          {pending ? 'Processing...' : 'Accept & Continue'}
        </Button>
      </div>
    </>
  );
}
