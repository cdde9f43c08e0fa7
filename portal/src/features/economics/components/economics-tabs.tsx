import { useRef, type KeyboardEvent } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import { useHashTab } from '../use-hash-tab';
import { ClientEconomics } from './client-economics';
import { OperatorEconomics } from './operator-economics';
import '../economics.css';

/** docs/product/screens.md#dashboards-and-information-pages: tab 0 is #clients, tab 1 is #node-operators. */
const TABS = [
  { hash: 'clients', label: 'tabs.clients', Panel: ClientEconomics },
  { hash: 'node-operators', label: 'tabs.operators', Panel: OperatorEconomics },
] as const;
const HASHES: readonly string[] = TABS.map((tab) => tab.hash);

const tabId = (hash: string) => `economics-tab-${hash}`;
const panelId = (hash: string) => `economics-panel-${hash}`;

/** The two economics tabs, kept in sync with the URL hash (WAI-ARIA tabs, automatic activation). */
export function EconomicsTabs() {
  const { t } = useT('economics');
  const [selected, select] = useHashTab(HASHES);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = TABS.length - 1;
    let next: number | undefined;
    // Right to left, the next tab is the one on the left.
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    if (event.key === forward) next = selected === last ? 0 : selected + 1;
    else if (event.key === back) next = selected === 0 ? last : selected - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    if (next === undefined) return;
    event.preventDefault();
    select(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div className="econ-tabs">
      <div
        className="tabs econ-tabs__list"
        role="tablist"
        aria-label={t('tabs.label')}
        onKeyDown={onKeyDown}
      >
        {TABS.map((tab, index) => (
          <button
            key={tab.hash}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={tabId(tab.hash)}
            className="tab econ-tabs__tab"
            aria-selected={selected === index}
            aria-controls={panelId(tab.hash)}
            tabIndex={selected === index ? 0 : -1}
            onClick={() => select(index)}
          >
            {t(tab.label)}
          </button>
        ))}
      </div>
      {TABS.map(({ hash, Panel }, index) => (
        <div
          key={hash}
          role="tabpanel"
          id={panelId(hash)}
          aria-labelledby={tabId(hash)}
          className="econ-tabs__panel"
          hidden={selected !== index}
          tabIndex={0}
        >
          {/* Only the selected panel is mounted, so its text exists once in the page. */}
          {selected === index ? <Panel /> : null}
        </div>
      ))}
    </div>
  );
}
