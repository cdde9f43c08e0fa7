import { useState } from 'react';
import { Link } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { ContactSupportModal } from '../../features/contact/components/contact-support-modal';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { useDocumentTitle } from '../../features/info/use-document-title';
import './support.css';

/** spec 02 §2: expected response times by kind of request. */
const RESPONSE_TIMES = [
  { kind: 'General questions', time: 'Within 2 hours' },
  { kind: 'Technical issues', time: 'Within 4 hours' },
  { kind: 'Account issues', time: 'Within 24 hours' },
] as const;

/** spec 02 §2: the five-step support process. */
const PROCESS_STEPS = [
  {
    title: 'Contact us',
    text: 'Send your question through the contact form or by email. Include your account email and, if relevant, the server or subscription involved.',
  },
  {
    title: 'Receive confirmation',
    text: 'You get a confirmation that your message arrived, so you know it is in the queue.',
  },
  {
    title: 'Investigation and response',
    text: 'A support engineer looks into the issue, checks server health and account records where needed, and replies with an answer or a fix.',
  },
  {
    title: 'Follow-ups for complex issues',
    text: 'Problems that need more digging, or coordination with a node operator, get follow-up messages until they are settled.',
  },
  {
    title: 'Satisfaction follow-up',
    text: 'After the issue is resolved we check back to make sure everything works and the answer was useful.',
  },
] as const;

/** /support (spec 02 §2). */
export function SupportRoute() {
  useDocumentTitle('Support');
  const [contactOpen, setContactOpen] = useState(false);

  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow="Help"
        title="Support Center"
        lead="Questions about your subscription, your node or your wallet? Our team is here to help clients and node operators alike."
      />

      <div className="support-grid">
        <article
          className="support-card support-card--primary"
          aria-labelledby="support-email-title"
        >
          <div className="support-card__icon" aria-hidden="true">
            <svg viewBox="0 0 24 24" focusable="false">
              <path
                d="M3 6.5A2.5 2.5 0 0 1 5.5 4h13A2.5 2.5 0 0 1 21 6.5v11a2.5 2.5 0 0 1-2.5 2.5h-13A2.5 2.5 0 0 1 3 17.5v-11Zm2 .3V7l7 4.7L19 7v-.2a.8.8 0 0 0-.8-.8H5.8a.8.8 0 0 0-.8.8Zm14 2.6-6.4 4.3a1 1 0 0 1-1.2 0L5 9.4v8.1c0 .3.2.5.5.5h13c.3 0 .5-.2.5-.5V9.4Z"
                fill="currentColor"
              />
            </svg>
          </div>
          <h2 id="support-email-title">Email Support</h2>
          <p>
            Send us a message and a member of the team will reply by email. Response time: 24-48
            hours.
          </p>
          <Button onClick={() => setContactOpen(true)} data-testid="open-contact-support">
            Contact Support
          </Button>
          <p className="support-card__alt">
            Or write directly to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </p>
        </article>

        <article className="support-card" aria-labelledby="support-hours-title">
          <h2 id="support-hours-title">Support hours</h2>
          <dl className="support-list">
            <div>
              <dt>Email support</dt>
              <dd>Replies within 24-48 hours</dd>
            </div>
            <div>
              <dt>Emergency support</dt>
              <dd>24/7 for security issues</dd>
            </div>
          </dl>
        </article>

        <article className="support-card" aria-labelledby="support-times-title">
          <h2 id="support-times-title">Expected response times</h2>
          <dl className="support-list">
            {RESPONSE_TIMES.map((row) => (
              <div key={row.kind}>
                <dt>{row.kind}</dt>
                <dd>{row.time}</dd>
              </div>
            ))}
          </dl>
        </article>
      </div>

      <section className="info-section" aria-labelledby="support-process-title">
        <h2 id="support-process-title" className="info-section__title">
          How support works
        </h2>
        <ol className="support-steps">
          {PROCESS_STEPS.map((step, index) => (
            <li key={step.title} className="support-steps__item">
              <span className="support-steps__number" aria-hidden="true">
                {index + 1}
              </span>
              <div>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="info-cta" aria-labelledby="support-faq-title">
        <div>
          <h2 id="support-faq-title">Looking for a quick answer?</h2>
          <p>Many questions about billing, nodes and connecting are answered in our FAQs.</p>
        </div>
        <Link href={paths.faqs} className={buttonClass({ variant: 'secondary' })}>
          Browse the FAQs
        </Link>
      </section>

      <ContactSupportModal open={contactOpen} onClose={() => setContactOpen(false)} />
    </div>
  );
}
