import { useId, useState, type ReactNode } from 'react';
import '../info.css';

export interface AccordionItem {
  id: string;
  title: string;
  content: ReactNode;
}

export interface AccordionProps {
  items: readonly AccordionItem[];
  /** Heading level of each item's title, to fit the page outline. */
  headingLevel?: 3 | 4;
  /** Ids of items open at first. */
  defaultOpen?: readonly string[];
}

/**
 * WAI-ARIA accordion: each title is a button with aria-expanded that controls a region
 * labelled by that button. Several items may be open at once.
 */
export function Accordion({ items, headingLevel = 3, defaultOpen = [] }: AccordionProps) {
  const baseId = useId();
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(defaultOpen));
  const Heading = headingLevel === 3 ? 'h3' : 'h4';

  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="accordion info-accordion">
      {items.map((item) => {
        const expanded = open.has(item.id);
        const buttonId = `${baseId}-${item.id}-button`;
        const panelId = `${baseId}-${item.id}-panel`;
        return (
          <div key={item.id} className="accordion__item info-accordion__item" data-open={expanded}>
            <Heading className="info-accordion__heading">
              <button
                type="button"
                id={buttonId}
                className="accordion__trigger info-accordion__trigger"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => toggle(item.id)}
              >
                {item.title}
              </button>
            </Heading>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              className="accordion__panel info-accordion__panel"
              hidden={!expanded}
            >
              <div className="info-accordion__content prose">{item.content}</div>
            </div>
          </div>
        );
      })}
    </div>
  );
}
