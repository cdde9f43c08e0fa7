import {
  NODES_MESSAGES,
  VPS_TIERS,
  type EnrollmentTokenResponse,
  type VpsTierId,
} from '@scn/proto';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { createEnrollmentToken } from '../api/create-enrollment-token';
import { formatDateTime } from '../server-format';
import '../nodes.css';

export interface SetupWizardDialogProps {
  open: boolean;
  onClose: () => void;
}

const usd = new Intl.NumberFormat('en-US');

/**
 * spec 02 §2 Node setup wizard: step 1 chooses a VPS tier (spec 01 §9), step 2 shows the
 * install command with a fresh one-time enrollment token.
 */
export function SetupWizardDialog({ open, onClose }: SetupWizardDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Set Up a VPS Node"
      description="Turn a fresh Ubuntu or Debian VPS into a node in one command."
      size="lg"
      data-testid="setup-wizard"
    >
      <SetupWizardBody onClose={onClose} />
    </Dialog>
  );
}

function SetupWizardBody({ onClose }: { onClose: () => void }) {
  const [tier, setTier] = useState<VpsTierId | null>(null);
  const [issued, setIssued] = useState<EnrollmentTokenResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const generate = async () => {
    if (!tier) {
      // spec 02 §5: the button is disabled without a tier; this only guards a forced click.
      window.alert(NODES_MESSAGES.tierRequired);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setIssued(await createEnrollmentToken(tier));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Failed to generate the setup script');
    } finally {
      setBusy(false);
    }
  };

  if (issued) {
    return (
      <div className="setup-wizard" data-testid="setup-wizard-script">
        <p className="setup-wizard__step small muted">Step 2 of 2: run the setup script</p>
        <p>
          Connect to your VPS over SSH and run this command <strong>as root</strong>:
        </p>
        <div className="setup-wizard__command">
          <pre>
            <code data-testid="install-command">{issued.installCommand}</code>
          </pre>
          <CopyButton text={issued.installCommand} data-testid="copy-install-command" />
        </div>
        <p className="small muted" data-testid="token-expiry">
          The command holds a one-time token for{' '}
          {VPS_TIERS.find((candidate) => candidate.id === issued.tier)?.name ?? issued.tier}. It
          expires on {formatDateTime(issued.expiresAt)}; generate a new one for each server.
        </p>
        <ul className="check-list setup-wizard__notes" data-testid="setup-notes">
          <li>Installing takes about 5 minutes.</li>
          <li>The server appears on your dashboard 2 to 3 minutes after the install finishes.</li>
          <li>Ubuntu or Debian only.</li>
          <li>The script must run as root.</li>
          <li>It opens ports 22, 80, 443 and 10000-65535 in the firewall.</li>
        </ul>
        <div className="dialog__actions">
          <Button variant="secondary" onClick={() => setIssued(null)}>
            Back
          </Button>
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="setup-wizard" data-testid="setup-wizard-tiers">
      <p className="setup-wizard__step small muted">Step 1 of 2: choose your VPS tier</p>
      <Banner tone="warning">
        Use a fresh VPS that runs nothing else: the script installs the proxy core and the node
        agent and changes the firewall.
      </Banner>
      <fieldset className="tier-picker">
        <legend className="sr-only">VPS tier</legend>
        {VPS_TIERS.map((option) => (
          <label
            key={option.id}
            className={`tier-card${tier === option.id ? ' tier-card--selected' : ''}`}
            data-testid={`tier-${option.id}`}
          >
            <input
              type="radio"
              name="vps-tier"
              value={option.id}
              checked={tier === option.id}
              onChange={() => setTier(option.id)}
              className="tier-card__input"
            />
            <span className="tier-card__head">
              <span className="tier-card__name">{option.name}</span>
              {option.recommended && <span className="badge badge--info">Recommended</span>}
            </span>
            <span className="tier-card__specs small muted">
              {option.vcpu} vCPU · {option.ramGb} GB RAM · {option.ssdGb} GB SSD
            </span>
            <span className="tier-card__clients small">Up to {option.maxClients} clients</span>
            <span className="tier-card__earnings">
              {usd.format(option.monthlyEarningsSsl)} SSL / month
              <span className="small muted"> ({option.usdValue})</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error && (
        <Banner tone="error" data-testid="setup-wizard-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="primary"
          disabled={tier === null || busy}
          onClick={() => void generate()}
          data-testid="generate-setup-script"
        >
          {busy ? 'Generating...' : 'Generate Setup Script'}
        </Button>
      </div>
    </div>
  );
}
