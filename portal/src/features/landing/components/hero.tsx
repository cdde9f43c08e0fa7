import type { ReactNode } from 'react';
import { NodeDiagram } from './node-diagram';
import '../landing.css';

export interface HeroProps {
  /** The call-to-action buttons, which depend on the session (spec 01 §2 "Landing page"). */
  actions: ReactNode;
}

export function Hero({ actions }: HeroProps) {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__grid">
        <div className="hero__copy">
          <p className="eyebrow">Censorship-resistant network access</p>
          <h1 id="hero-title" className="hero__title">
            Stay Connected. <span className="hero__accent">Stay Invisible.</span>
          </h1>
          <p className="hero__lead">
            A marketplace of independent node operators providing private, encrypted connections
            that resist deep packet inspection, with a strict no-logs policy on our side.
          </p>
          <div className="hero__actions" data-testid="hero-cta">
            {actions}
          </div>
          <ul className="hero__points">
            <li>Strict no-logs policy</li>
            <li>DPI protection</li>
            <li>Port rotation</li>
          </ul>
        </div>
        <div className="hero__visual">
          <NodeDiagram />
        </div>
      </div>
    </section>
  );
}
