import type { NodeServer } from '@scn/proto';
import { Fragment, type ReactNode, useState } from 'react';
import { useServers } from '../api/get-servers';
import { NodeReachability } from './node-reachability';
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
  /** The vantage points any account may run (their feature's panel, composed by the app). */
  vantagePoints?: ReactNode;
  /** docs/product/screens.md#the-shell-and-the-market-screens: a server card's Promote button (the promotions feature's modal, composed by the app). */
  onPromote?: (server: NodeServer) => void;
}

/**
 * docs/product/screens.md#dashboards-and-information-pages node dashboard sections below the page header: wallet, Quick Setup, servers, and
 * where they work (docs/reachability.md), the vantage points, and their earnings. An operator without a server sees the servers section first,
 * leading with setting up a VPS node. The sections are keyed, so a move keeps
 * their state (an open dialog stays open when the first server appears).
 */
export function NodeDashboard({
  ownerUuid,
  wallet,
  earnings,
  vantagePoints,
  onPromote,
}: NodeDashboardProps) {
  const [wizardOpen, setWizardOpen] = useState(false);
  const nodes = useServers(ownerUuid);
  const openWizard = () => setWizardOpen(true);
  const empty = nodes.status === 'ready' && nodes.servers.length === 0;
  const sections: Array<[string, ReactNode]> = [
    ['wallet', wallet],
    ['quick-setup', <QuickSetup onOpenWizard={openWizard} />],
    [
      'servers',
      <ServerList ownerUuid={ownerUuid} onOpenWizard={openWizard} onPromote={onPromote} />,
    ],
    ['reachability', <NodeReachability ownerUuid={ownerUuid} />],
    ['vantage-points', vantagePoints],
    ['earnings', earnings],
  ];
  if (empty) sections.unshift(...sections.splice(2, 1));
  return (
    <div className="node-dashboard">
      {sections.map(([key, section]) => (
        <Fragment key={key}>{section}</Fragment>
      ))}
      <SetupWizardDialog
        open={wizardOpen}
        onClose={() => setWizardOpen(false)}
        suggestedName={nodes.servers.length + 1}
      />
      <ToastRegion />
    </div>
  );
}
