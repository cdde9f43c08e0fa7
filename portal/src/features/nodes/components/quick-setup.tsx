import { Trans } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { setQuickSetupOpen, useNodes } from '../store';
import '../nodes.css';

/** docs/product/screens.md#dashboards-and-information-pages: collapsible Quick Setup, collapsed by default, the choice remembered locally. */
export function QuickSetup({ onOpenWizard }: { onOpenWizard: () => void }) {
  const { t } = useT('node');
  const { quickSetupOpen } = useNodes();
  return (
    <section className="card quick-setup" aria-labelledby="quick-setup-title">
      <h2 id="quick-setup-title" className="quick-setup__title">
        <button
          type="button"
          className="quick-setup__toggle"
          aria-expanded={quickSetupOpen}
          aria-controls="quick-setup-panel"
          onClick={() => setQuickSetupOpen(!quickSetupOpen)}
          data-testid="quick-setup-toggle"
        >
          {t('quickSetup.title')}
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
      </h2>
      <div id="quick-setup-panel" hidden={!quickSetupOpen} data-testid="quick-setup-panel">
        <ol className="quick-setup__steps">
          <li>
            <Trans ns="node" i18nKey="quickSetup.step1" components={{ strong: <strong /> }} />
          </li>
          <li>
            <Trans ns="node" i18nKey="quickSetup.step2" components={{ strong: <strong /> }} />
          </li>
          <li>
            <Trans ns="node" i18nKey="quickSetup.step3" components={{ strong: <strong /> }} />
          </li>
        </ol>
        <Button variant="primary" onClick={onOpenWizard}>
          {t('quickSetup.open')}
        </Button>
      </div>
    </section>
  );
}
