import type { ReactNode } from 'react';
import '../landing.css';

export interface FinalCtaProps {
  actions: ReactNode;
}

export function FinalCta({ actions }: FinalCtaProps) {
  return (
    <section className="section" aria-labelledby="final-cta-title">
      <div className="container">
        <div className="cta-panel">
          <h2 id="final-cta-title">Ready to join the network?</h2>
          <p>
            Connect privately as a client, or put your server to work and earn as a node operator.
          </p>
          <div className="cta-panel__actions" data-testid="final-cta">
            {actions}
          </div>
        </div>
      </div>
    </section>
  );
}
