import type { ReactNode } from 'react';
import { Trans } from 'react-i18next';
import { useT } from '../../../lib/i18n/i18n';
import { NodeDiagram } from './node-diagram';
import '../landing.css';

export interface HeroProps {
  /** The call-to-action buttons, which depend on the session (docs/product/screens.md#the-shell-and-the-market-screens "Landing page"). */
  actions: ReactNode;
}

export function Hero({ actions }: HeroProps) {
  const { t } = useT();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__grid">
        <div className="hero__copy">
          <p className="eyebrow">{t('landing.hero.eyebrow')}</p>
          <h1 id="hero-title" className="hero__title">
            <Trans
              i18nKey="landing.hero.title"
              components={{ accent: <span className="hero__accent" /> }}
            />
          </h1>
          <p className="hero__lead">{t('landing.hero.lead')}</p>
          <div className="hero__actions" data-testid="hero-cta">
            {actions}
          </div>
          <ul className="hero__points">
            <li>{t('landing.hero.pointNoLogs')}</li>
            <li>{t('landing.hero.pointDpi')}</li>
            <li>{t('landing.hero.pointPorts')}</li>
          </ul>
        </div>
        <div className="hero__visual">
          <NodeDiagram />
        </div>
      </div>
    </section>
  );
}
