import { useT } from '../../../lib/i18n/i18n';
import { useActiveSection } from '../use-active-section';
import '../info.css';

export interface TocItem {
  id: string;
  label: string;
}

export interface TableOfContentsProps {
  items: readonly TocItem[];
  title?: string;
}

/** An in-page table of contents; the section being read is marked with aria-current. */
export function TableOfContents({ items, title }: TableOfContentsProps) {
  const { t } = useT();
  const heading = title ?? t('ui.onThisPage');
  const active = useActiveSection(items.map((item) => item.id));

  return (
    <nav className="info-toc" aria-label={heading}>
      <p className="info-toc__title">{heading}</p>
      <ol className="info-toc__list">
        {items.map((item) => (
          <li key={item.id}>
            <a
              className="info-toc__link"
              href={`#${item.id}`}
              aria-current={active === item.id ? 'location' : undefined}
            >
              {item.label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
