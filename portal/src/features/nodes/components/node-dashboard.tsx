import type { NodeServer } from '@scn/proto';
import { type ReactNode, useState } from 'react';
import { QuickSetup } from './quick-setup';
import { ServerList } from './server-list';
import { SetupWizardDialog } from './setup-wizard-dialog';
import { ToastRegion } from './toast-region';
import '../nodes.css';

export interface NodeDashboardProps {
  ownerUuid: string;
  /** The wallet section (the wallet feature's panel, composed by the app). */
  wallet: ReactNode;
  /** The servers' monthly statements (the earnings feature's panel), below the servers. */
  earnings?: ReactNode;
  /** spec 01 §2: a server card's Promote button (the promotions feature's modal, composed by the app). */
  onPromote?: (server: NodeServer) => void;
}

/**
 * spec 02 §2 node dashboard sections below the page header: wallet, Quick Setup, servers, and
 * (issue 18 §6) their earnings.
 */
export function NodeDashboard({ ownerUuid, wallet, earnings, onPromote }: NodeDashboardProps) {
  const [wizardOpen, setWizardOpen] = useState(false);
  const openWizard = () => setWizardOpen(true);
  return (
    <div className="node-dashboard">
      {wallet}
      <QuickSetup onOpenWizard={openWizard} />
      <ServerList ownerUuid={ownerUuid} onOpenWizard={openWizard} onPromote={onPromote} />
      {earnings}
      <SetupWizardDialog open={wizardOpen} onClose={() => setWizardOpen(false)} />
      <ToastRegion />
    </div>
  );
}
