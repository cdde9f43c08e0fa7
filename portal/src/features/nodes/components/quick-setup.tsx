import { Button } from '../../../components/ui/button';
import { setQuickSetupOpen, useNodes } from '../store';
import '../nodes.css';

/** spec 02 §2: collapsible Quick Setup, collapsed by default, the choice remembered locally. */
export function QuickSetup({ onOpenWizard }: { onOpenWizard: () => void }) {
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
          Quick Setup
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
      </h2>
      <div id="quick-setup-panel" hidden={!quickSetupOpen} data-testid="quick-setup-panel">
        <ol className="quick-setup__steps">
          <li>
            <strong>Choose a VPS tier.</strong> Rent a VPS with Ubuntu or Debian; bigger tiers serve
            more clients and earn more.
          </li>
          <li>
            <strong>Run the setup command as root.</strong> The wizard gives you a one-line command
            with a one-time token; paste it into the VPS over SSH.
          </li>
          <li>
            <strong>Wait 2-3 minutes.</strong> The node enrolls itself and appears in Your Servers
            below.
          </li>
        </ol>
        <Button variant="primary" onClick={onOpenWizard}>
          Open Setup Wizard
        </Button>
      </div>
    </section>
  );
}
