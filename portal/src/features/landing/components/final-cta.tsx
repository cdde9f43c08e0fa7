import type { ReactNode } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import '../landing.css';

export interface FinalCtaProps {
  actions: ReactNode;
}

export function FinalCta({ actions }: FinalCtaProps) {
  const { t } = useT();
  return (
    <section className="section" aria-labelledby="final-cta-title">
      <div className="container">
        <div className="cta-panel">
          <h2 id="final-cta-title">{t('landing.final.title')}</h2>
          <p>{t('landing.final.text')}</p>
          <div className="cta-panel__actions" data-testid="final-cta">
            {actions}
          </div>
        </div>
      </div>
    </section>
  );
}
