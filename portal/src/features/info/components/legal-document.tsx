import type { ReactNode } from 'react';
import { InfoPageHeader } from './info-page-header';
import { TableOfContents } from './table-of-contents';
import '../info.css';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export interface LegalDocumentProps {
  title: string;
  /** Display date and its ISO form, e.g. { label: 'May 6, 2025', iso: '2025-05-06' }. */
  lastUpdated: { label: string; iso: string };
  intro: ReactNode;
  sections: readonly LegalSection[];
  /** Closing content after the numbered sections (contact links, etc.). */
  footer?: ReactNode;
}

/** A long legal text: numbered sections with a sticky table of contents beside them. */
export function LegalDocument({ title, lastUpdated, intro, sections, footer }: LegalDocumentProps) {
  const tocItems = sections.map((section, index) => ({
    id: section.id,
    label: `${index + 1}. ${section.title}`,
  }));

  return (
    <div className="info-page page container">
      <InfoPageHeader eyebrow="Legal" title={title}>
        <p className="info-hero__meta">
          Last updated: <time dateTime={lastUpdated.iso}>{lastUpdated.label}</time>
        </p>
      </InfoPageHeader>

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents items={tocItems} title="Contents" />
        </aside>
        <article className="info-layout__main prose legal-document">
          <div className="legal-document__intro">{intro}</div>
          {sections.map((section, index) => (
            <section
              key={section.id}
              id={section.id}
              className="legal-document__section"
              aria-labelledby={`${section.id}-heading`}
            >
              <h2 id={`${section.id}-heading`}>
                <span className="legal-document__number">{index + 1}.</span> {section.title}
              </h2>
              {section.body}
            </section>
          ))}
          {footer ? <footer className="legal-document__footer">{footer}</footer> : null}
        </article>
      </div>
    </div>
  );
}
