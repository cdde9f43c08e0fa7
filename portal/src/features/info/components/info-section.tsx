import type { ReactNode } from 'react';
import '../info.css';

export interface InfoSectionProps {
  id: string;
  title: string;
  /** A short line under the heading. */
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A titled section of an info page, addressable by #id from a table of contents. */
export function InfoSection({ id, title, intro, children, className }: InfoSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section
      id={id}
      className={`info-section${className ? ` ${className}` : ''}`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="info-section__title">
        {title}
      </h2>
      {intro ? <p className="info-section__intro">{intro}</p> : null}
      {children}
    </section>
  );
}
