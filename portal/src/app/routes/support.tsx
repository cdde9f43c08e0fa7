import { useState } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { ContactSupportModal } from '../../features/contact/components/contact-support-modal';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { useDocumentTitle } from '../../features/info/use-document-title';
import { formatNumber } from '../../lib/i18n/format';
import { useT } from '../../lib/i18n/i18n';
import './support.css';

/** docs/product/screens.md#dashboards-and-information-pages: expected response times by kind of request, in hours. */
const RESPONSE_TIMES = [
  { kind: 'general', hours: 2 },
  { kind: 'technical', hours: 4 },
  { kind: 'account', hours: 24 },
] as const;

/** docs/product/screens.md#dashboards-and-information-pages: the five-step support process. */
const PROCESS_STEPS = [
  'contact',
  'confirmation',
  'investigation',
  'followUps',
  'satisfaction',
] as const;

/** /support (docs/product/screens.md#dashboards-and-information-pages). */
export function SupportRoute() {
  const { t, locale } = useT('support');
  useDocumentTitle(t('documentTitle'));
  const [contactOpen, setContactOpen] = useState(false);

  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow={t('header.eyebrow')}
        title={t('header.title')}
        lead={t('header.lead')}
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
          <h2 id="support-email-title">{t('email.title')}</h2>
          <p>{t('email.text')}</p>
          <Button onClick={() => setContactOpen(true)} data-testid="open-contact-support">
            {t('email.action')}
          </Button>
          <p className="support-card__alt">
            <Trans
              ns="support"
              i18nKey="email.direct"
              components={{
                email: (
                  <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr">
                    {SUPPORT_EMAIL}
                  </a>
                ),
              }}
            />
          </p>
        </article>

        <article className="support-card" aria-labelledby="support-hours-title">
          <h2 id="support-hours-title">{t('hours.title')}</h2>
          <dl className="support-list">
            <div>
              <dt>{t('hours.email')}</dt>
              <dd>{t('hours.emailTime')}</dd>
            </div>
            <div>
              <dt>{t('hours.emergency')}</dt>
              <dd>{t('hours.emergencyTime')}</dd>
            </div>
          </dl>
        </article>

        <article className="support-card" aria-labelledby="support-times-title">
          <h2 id="support-times-title">{t('times.title')}</h2>
          <dl className="support-list">
            {RESPONSE_TIMES.map((row) => (
              <div key={row.kind}>
                <dt>{t(`times.${row.kind}`)}</dt>
                <dd>{t('times.within', { hours: row.hours })}</dd>
              </div>
            ))}
          </dl>
        </article>
      </div>

      <section className="info-section" aria-labelledby="support-process-title">
        <h2 id="support-process-title" className="info-section__title">
          {t('process.title')}
        </h2>
        <ol className="support-steps">
          {PROCESS_STEPS.map((step, index) => (
            <li key={step} className="support-steps__item">
              <span className="support-steps__number" aria-hidden="true">
                {formatNumber(index + 1, locale)}
              </span>
              <div>
                <h3>{t(`process.${step}.title`)}</h3>
                <p>{t(`process.${step}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="info-cta" aria-labelledby="support-faq-title">
        <div>
          <h2 id="support-faq-title">{t('faq.title')}</h2>
          <p>{t('faq.text')}</p>
        </div>
        <Link href={paths.faqs} className={buttonClass({ variant: 'secondary' })}>
          {t('faq.action')}
        </Link>
      </section>

      <ContactSupportModal open={contactOpen} onClose={() => setContactOpen(false)} />
    </div>
  );
}
