import { useState } from 'react';
import { QuickSetup } from './quick-setup';
import { ServerList } from './server-list';
import { SetupWizardDialog } from './setup-wizard-dialog';
import { ToastRegion } from './toast-region';
import { WalletPlaceholder } from './wallet-placeholder';

/** spec 02 §2 node dashboard sections below the page header: wallet, Quick Setup, servers. */
export function NodeDashboard({ ownerUuid }: { ownerUuid: string }) {
  const [wizardOpen, setWizardOpen] = useState(false);
  const openWizard = () => setWizardOpen(true);
  return (
    <div className="node-dashboard">
      <WalletPlaceholder />
      <QuickSetup onOpenWizard={openWizard} />
      <ServerList ownerUuid={ownerUuid} onOpenWizard={openWizard} />
      <SetupWizardDialog open={wizardOpen} onClose={() => setWizardOpen(false)} />
      <ToastRegion />
    </div>
  );
}
