import { PRICING, sslToMicro } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';

import { useT } from '../../../lib/i18n/i18n';
import '../landing.css';

const STEPS = [
  { id: 'types', icon: '01' },
  { id: 'operations', icon: '02' },
  { id: 'access', icon: '03' },
] as const;

export function HowItWorks() {
  const { t, locale } = useT();
  const price = formatMicroSsl(sslToMicro(PRICING.monthlyPerServerSsl), locale);
  return (
    <section className="section" aria-labelledby="how-title">
      <div className="container">
        <div className="section__header">
          <p className="eyebrow">{t('landing.how.eyebrow')}</p>
          <h2 id="how-title">{t('landing.how.title')}</h2>
          <p className="section__lead">{t('landing.how.lead')}</p>
        </div>
        <div className="grid grid--3">
          {STEPS.map((step) => (
            <article key={step.id} className="card card--feature">
              <span className="card__step" aria-hidden="true">
                {step.icon}
              </span>
              <h3>{t(`landing.how.${step.id}.title`)}</h3>
              <p>{t(`landing.how.${step.id}.text`, { price })}</p>
              <ul className="check-list">
                <li>{t(`landing.how.${step.id}.point1`)}</li>
                <li>{t(`landing.how.${step.id}.point2`)}</li>
              </ul>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
