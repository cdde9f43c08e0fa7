import type { ReactNode } from 'react';
import '../info.css';

export interface InfoPageHeaderProps {
  /** Small label above the title, e.g. the page's section of the site. */
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  /** Extra content under the lead: meta lines, badges, buttons. */
  children?: ReactNode;
}

/** The header every info page opens with: one h1, an optional lead paragraph. */
export function InfoPageHeader({ eyebrow, title, lead, children }: InfoPageHeaderProps) {
  return (
    <header className="page-header info-hero">
      {eyebrow ? <p className="eyebrow info-hero__eyebrow">{eyebrow}</p> : null}
      <h1 className="info-hero__title">{title}</h1>
      {lead ? <p className="page-header__lead info-hero__lead">{lead}</p> : null}
      {children}
    </header>
  );
}
