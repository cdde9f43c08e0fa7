import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n/i18n';
import '../landing.css';

const icon = (d: string): ReactNode => (
  <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true">
    <path
      d={d}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

const FEATURES: readonly { id: 'dpi' | 'noLogs' | 'encryption' | 'ddos'; icon: ReactNode }[] = [
  {
    id: 'dpi',
    icon: icon('M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6l8-3zM9 12l2 2 4-4'),
  },
  {
    id: 'noLogs',
    icon: icon('M4 6h16M4 12h10M4 18h7M16 16l4 4M20 16l-4 4'),
  },
  {
    id: 'encryption',
    icon: icon('M7 11V8a5 5 0 0110 0v3M5 11h14v10H5zM12 15v2'),
  },
  {
    id: 'ddos',
    icon: icon('M4 12a8 8 0 0114-5.3M20 12a8 8 0 01-14 5.3M18 3v4h-4M6 21v-4h4'),
  },
];

export function SecurityFeatures() {
  const { t } = useT();
  return (
    <section className="section section--alt" aria-labelledby="security-title">
      <div className="container">
        <div className="section__header">
          <p className="eyebrow">{t('landing.security.eyebrow')}</p>
          <h2 id="security-title">{t('landing.security.title')}</h2>
          <p className="section__lead">{t('landing.security.lead')}</p>
        </div>
        <div className="grid grid--4">
          {FEATURES.map((feature) => (
            <article key={feature.id} className="card card--feature">
              <span className="card__icon">{feature.icon}</span>
              <h3>{t(`landing.security.${feature.id}Title`)}</h3>
              <p>{t(`landing.security.${feature.id}Text`)}</p>
            </article>
          ))}
        </div>
        <p className="section__more">
          <Link href={paths.security} className="arrow-link">
            {t('landing.security.learnMore')}
          </Link>
        </p>
      </div>
    </section>
  );
}
