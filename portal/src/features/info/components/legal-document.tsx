import type { ParseKeys } from 'i18next';
import type { ReactElement } from 'react';
import { Trans } from 'react-i18next';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { InfoPageHeader } from './info-page-header';
import { TableOfContents } from './table-of-contents';
import '../info.css';

/** A message of the legal catalogue (`locales/legal/<locale>.json`). */
export type LegalKey = ParseKeys<'legal'>;

/** One block of a legal text: a paragraph, or a list whose items are one message each. */
export type LegalBlock =
  { p: LegalKey } | { ul: readonly LegalKey[] } | { ol: readonly LegalKey[] };

export interface LegalSection {
  /** The section's anchor (the same Latin id in every language). */
  id: string;
  title: LegalKey;
  body: readonly LegalBlock[];
}

export interface LegalDocumentProps {
  title: LegalKey;
  /** The day of the last update, ISO (`2025-05-06`). */
  lastUpdated: string;
  intro: readonly LegalBlock[];
  sections: readonly LegalSection[];
  /** Closing content after the numbered sections (contact links, etc.). */
  footer?: readonly LegalBlock[];
  /** The values the messages name (`{supportEmail}`...). */
  values?: Record<string, string | number>;
  /** The tags the messages use (`<supportLink>`...), besides `<strong>`. */
  components?: Record<string, ReactElement>;
}

/** A long legal text: numbered sections with a sticky table of contents beside them. */
export function LegalDocument({
  title,
  lastUpdated,
  intro,
  sections,
  footer,
  values,
  components,
}: LegalDocumentProps) {
  const { t, locale } = useT('legal');
  const tocItems = sections.map((section, index) => ({
    id: section.id,
    label: t('document.numbered', { number: index + 1, title: t(section.title) }),
  }));
  const tags = { strong: <strong />, ...components };
  const blocks = (list: readonly LegalBlock[]) =>
    list.map((block, index) => {
      const text = (key: LegalKey) => (
        <Trans ns="legal" i18nKey={key} values={values} components={tags} />
      );
      if ('p' in block) return <p key={index}>{text(block.p)}</p>;
      const items = 'ul' in block ? block.ul : block.ol;
      const children = items.map((key) => <li key={key}>{text(key)}</li>);
      return 'ul' in block ? <ul key={index}>{children}</ul> : <ol key={index}>{children}</ol>;
    });

  return (
    <div className="info-page page container">
      <InfoPageHeader eyebrow={t('document.eyebrow')} title={t(title)}>
        <p className="info-hero__meta">
          <Trans
            ns="legal"
            i18nKey="document.lastUpdated"
            values={{
              date: formatDate(lastUpdated, locale, { dateStyle: 'long', timeZone: 'UTC' }),
            }}
            components={{ time: <time dateTime={lastUpdated} /> }}
          />
        </p>
        {locale === 'en' ? null : (
          <p className="info-hero__meta" data-testid="legal-translation-notice">
            {t('document.translationNotice')}
          </p>
        )}
      </InfoPageHeader>

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents items={tocItems} title={t('document.contents')} />
        </aside>
        <article className="info-layout__main prose legal-document">
          <div className="legal-document__intro">{blocks(intro)}</div>
          {sections.map((section, index) => (
            <section
              key={section.id}
              id={section.id}
              className="legal-document__section"
              aria-labelledby={`${section.id}-heading`}
            >
              <h2 id={`${section.id}-heading`}>
                <span className="legal-document__number">
                  {t('document.number', { number: index + 1 })}
                </span>{' '}
                {t(section.title)}
              </h2>
              {blocks(section.body)}
            </section>
          ))}
          {footer ? <footer className="legal-document__footer">{blocks(footer)}</footer> : null}
        </article>
      </div>
    </div>
  );
}
