import { DEFAULT_SSL_PER_SOL, ECONOMICS, PRICING, VPS_TIERS } from '@scn/proto';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { paths } from '../../config/paths';
import { DataTable } from '../../features/economics/components/data-table';
import { VpsTierTable } from '../../features/economics/components/vps-tier-table';
import { CodeBlock } from '../../features/info/components/code-block';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { InfoSection } from '../../features/info/components/info-section';
import { TableOfContents } from '../../features/info/components/table-of-contents';
import { useDocumentTitle } from '../../features/info/use-document-title';
import './documentation.css';

const TOC = [
  { id: 'overview', label: 'How SCN works' },
  { id: 'client-guide', label: 'Getting started as a client' },
  { id: 'client-apps', label: 'Client apps' },
  { id: 'operator-guide', label: 'Running a node' },
  { id: 'billing', label: 'Billing' },
  { id: 'reliability', label: 'Reliability' },
  { id: 'troubleshooting', label: 'Troubleshooting' },
  { id: 'help', label: 'Getting help' },
] as const;

const recommendedTier = VPS_TIERS.find((tier) => tier.recommended) ?? VPS_TIERS[0];

/** Import steps for the common VLESS apps. Menus differ slightly between app versions. */
const CLIENT_APPS = [
  [
    'v2rayN',
    'Windows',
    'Copy the connection string, then in the server list press Ctrl+V (Import share links from clipboard).',
  ],
  ['v2rayNG', 'Android', 'Tap +, then Import config from clipboard or Scan QR code.'],
  [
    'Hiddify',
    'Android, iOS, Windows, macOS, Linux',
    'Tap New Profile, then Add from clipboard or Scan QR code.',
  ],
  ['Streisand', 'iOS, macOS', 'Tap +, then paste from the clipboard or scan the QR code.'],
  [
    'NekoBox',
    'Android, Windows, Linux',
    'Use + (or Program > Add profile from clipboard) or scan the QR code.',
  ],
] as const;

interface Problem {
  title: string;
  fixes: ReactNode[];
}

const TROUBLESHOOTING: readonly Problem[] = [
  {
    title: 'My app cannot connect',
    fixes: [
      'Check in your client dashboard that the subscription is active, not paused, and for hourly billing that hours remain.',
      'Re-import the connection string from the dashboard: a server port may have been regenerated.',
      'If your subscription covers several servers, try another one from the QR dialog.',
      'Make sure your device clock is correct; TLS handshakes fail when it is far off.',
    ],
  },
  {
    title: 'The QR code does not scan',
    fixes: [
      'Raise the screen brightness and hold the camera steady at a short distance.',
      'Use the copy option under the code instead and import from the clipboard.',
    ],
  },
  {
    title: '"Cannot activate subscription: Insufficient funds"',
    fixes: [
      `Reactivating needs enough SSL in your wallet (${PRICING.monthlyPerServerSsl} SSL per server). Add funds from the Your Wallet section, then try again.`,
    ],
  },
  {
    title: 'My subscription was paused after changing billing type',
    fixes: [
      `A change of billing type costs ${PRICING.monthlyPerServerSsl} SSL per server. When the balance cannot cover it, the subscription is paused automatically; add funds and activate it again.`,
    ],
  },
  {
    title: 'My node does not appear on the dashboard',
    fixes: [
      <>
        Wait 2-3 minutes after the installer finishes, then run <code>scn-agent status</code> on the
        server.
      </>,
      "Check that your provider's firewall (security group) allows ports 22, 80, 443 and 10000-65535.",
      'Confirm you used the token from your own setup wizard; generate a new script and re-run it if unsure.',
    ],
  },
  {
    title: 'My reliability keeps dropping',
    fixes: [
      <>
        Reliability falls when health reports go stale. Run <code>scn-agent status</code> and make
        sure the agent is running and the server has a stable connection.
      </>,
      `Below ${ECONOMICS.hideBelowReliabilityPercent}% the server is hidden and rewards frozen; you have ${ECONOMICS.recoveryDays} days to recover.`,
    ],
  },
  {
    title: 'I cannot withdraw my rewards yet',
    fixes: [
      `Operator rewards are frozen for ${PRICING.operatorRewardFrozenDays} days before withdrawal. The wallet shows frozen amounts and when they unlock.`,
    ],
  },
];

/** /documentation (spec 02 §2): the user guide for clients and node operators. */
export function DocumentationRoute() {
  useDocumentTitle('Documentation');
  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow="Guides"
        title="Documentation"
        lead="Everything you need to connect as a client or run a node as an operator: setup, billing, reliability and fixes for common problems."
      />

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents items={TOC} />
        </aside>
        <div className="info-layout__main prose">
          <InfoSection id="overview" title="How SCN works">
            <p>
              The Secure Connection Network is a marketplace. <strong>Node operators</strong> run
              VLESS proxy servers on their own machines or VPSs and earn SSL credits.{' '}
              <strong>Clients</strong> spend SSL on subscriptions to the servers they pick and
              connect with a standard VLESS app. The control plane tracks every server's health and
              reliability, so the market shows which servers are dependable.
            </p>
            <p>
              Pricing and rewards are detailed on the{' '}
              <Link href={paths.economics}>Service Economics</Link> page.
            </p>
          </InfoSection>

          <ClientGuideSection />

          <InfoSection id="client-apps" title="Client apps">
            <p>
              Any app that supports VLESS works. On Windows and macOS you can also download the SCN
              client from your dashboard (<em>Download Client App</em>); verify the SHA-256 checksum
              shown next to each download.
            </p>
            <DataTable
              caption="Importing a connection into common apps"
              captionHidden
              head={['App', 'Platforms', 'How to import']}
              rows={CLIENT_APPS.map(([app, platforms, how]) => [app, platforms, how])}
            />
            <p>A connection string has the form:</p>
            <CodeBlock code="vless://<uuid>@<host>:<port>?<parameters>#<name>" />
          </InfoSection>

          <OperatorGuideSection />

          <InfoSection id="billing" title="Billing">
            <ul>
              <li>
                <strong>Monthly:</strong> {PRICING.monthlyPerServerSsl} SSL per server for{' '}
                {PRICING.monthlyValidityDays} days. One free {PRICING.monthlyFreePauseDays}-day
                pause every {PRICING.monthlyFreePauseEveryMonths} months.
              </li>
              <li>
                <strong>Hourly:</strong> {PRICING.hourlyPerServerSsl} SSL per hour, paid upfront in
                blocks of {PRICING.hourlyBlockHours} hours per server. Up to{' '}
                {PRICING.hourlyPausesPerDay} pauses a day of up to {PRICING.hourlyPauseMaxHours}{' '}
                hours each. The dashboard counts down the hours left.
              </li>
              <li>
                <strong>Changing billing type</strong> costs {PRICING.monthlyPerServerSsl} SSL per
                server, with no refund of remaining time.
              </li>
              <li>
                <strong>Operators</strong> earn {PRICING.operatorRewardSsl} SSL per client; rewards
                are frozen for {PRICING.operatorRewardFrozenDays} days, and a{' '}
                {ECONOMICS.withdrawalProtocolFeePercent}% protocol contribution applies on
                withdrawal.
              </li>
            </ul>
            <p>
              Worked examples for both sides are on the{' '}
              <Link href={paths.economics}>Service Economics</Link> page.
            </p>
          </InfoSection>

          <InfoSection id="reliability" title="Reliability">
            <p>
              Every node reports its health every minute. Each check that finds the server reachable
              with a fresh report raises reliability by 2 points, up to 100. Stale reports lower it:
              after 1 hour the server counts as unavailable, and after 96 hours without a report
              reliability drops to 0. A server counts as available at{' '}
              {ECONOMICS.availableAtReliability}% or more.
            </p>
            <p>
              Rewards are slashed by 2% for every 1% of reliability lost. Below{' '}
              {ECONOMICS.hideBelowReliabilityPercent}% a server is hidden from the network and its
              rewards are frozen; if it does not recover within {ECONOMICS.recoveryDays} days, the
              node is banned and the frozen rewards are cancelled.
            </p>
          </InfoSection>

          <InfoSection id="troubleshooting" title="Troubleshooting">
            <div className="doc-problems">
              {TROUBLESHOOTING.map((problem) => (
                <article key={problem.title} className="doc-problem">
                  <h3>{problem.title}</h3>
                  <ul>
                    {problem.fixes.map((fix, index) => (
                      <li key={index}>{fix}</li>
                    ))}
                  </ul>
                </article>
              ))}
            </div>
          </InfoSection>

          <InfoSection id="help" title="Getting help">
            <p>
              Check the <Link href={paths.faqs}>FAQs</Link> for quick answers, or reach the team
              through the <Link href={paths.support}>Support</Link> page. Include the output of{' '}
              <code>scn-agent status</code> for node issues.
            </p>
          </InfoSection>
        </div>
      </div>
    </div>
  );
}

/** Running a node: requirements, tier, install command (with this site's address) and the check. */
function OperatorGuideSection() {
  const site = typeof window === 'undefined' ? 'https://your-scn-site' : window.location.origin;
  const installCommand = `curl -fsSL ${site}/install.sh | sudo bash -s -- --token <YOUR_NODE_TOKEN> --tier ${recommendedTier?.id ?? 'tier2'}`;

  return (
    <InfoSection id="operator-guide" title="Running a node">
      <h3>Requirements</h3>
      <ul>
        <li>Ubuntu or Debian, with root access (the installer must run as root).</li>
        <li>
          Ports 22, 80, 443 and 10000-65535 reachable; the installer opens them on the host
          firewall.
        </li>
        <li>At least 100 Mbps each way, latency under 50 ms, unlimited data.</li>
        <li>No static IP, port forwarding or router changes needed.</li>
      </ul>

      <h3>Choose a tier</h3>
      <p>
        The setup wizard offers four VPS tiers. The tier sets how many clients your node accepts and
        its base earnings.
      </p>
      <VpsTierTable />

      <h3>Install</h3>
      <ol>
        <li>
          Sign in as a node operator, open your{' '}
          <Link href={paths.nodeDashboard}>node dashboard</Link> and start the VPS setup wizard.
        </li>
        <li>
          Choose your tier and select <em>Generate Setup Script</em>.
        </li>
        <li>
          Copy the generated command, which contains your personal token, and run it on the server:
        </li>
      </ol>
      <CodeBlock code={installCommand} />
      <p>
        Replace <code>{'<YOUR_NODE_TOKEN>'}</code> with the token from the wizard and the tier with
        the one you chose (<code>{VPS_TIERS.map((tier) => tier.id).join(', ')}</code>). Installation
        takes about 5 minutes. The agent installs the Xray core, configures the firewall, enables
        automatic updates and starts reporting health every 60 seconds.
      </p>

      <h3>Verify</h3>
      <p>Check that the agent is running and connected:</p>
      <CodeBlock code="scn-agent status" />
      <p>
        Your server appears on the node dashboard within 2 to 3 minutes, with its uptime,
        connections, reliability and ping.
      </p>
    </InfoSection>
  );
}

/** Getting started as a client, step by step. */
function ClientGuideSection() {
  return (
    <InfoSection id="client-guide" title="Getting started as a client">
      <ol className="doc-steps">
        <li>
          <h3>Create an account</h3>
          <p>
            Choose <em>Get Started</em>, pick the <strong>Client</strong> account type and register
            with your email and a password.
          </p>
        </li>
        <li>
          <h3>Add SSL to your wallet</h3>
          <p>
            In your client dashboard, open <em>Your Wallet</em> and deposit SOL. It is converted to
            SSL (by default {DEFAULT_SSL_PER_SOL.toLocaleString('en-US')} SSL per SOL). Card
            deposits are not available yet. Access is complimentary during the launch period,
            through December 31, 2025.
          </p>
        </li>
        <li>
          <h3>Pick your servers</h3>
          <p>
            Open the <Link href={paths.servers}>server market</Link>. Servers are listed by
            reliability and ping; choose one or more close to you with high reliability (green is
            90% or more).
          </p>
        </li>
        <li>
          <h3>Subscribe</h3>
          <p>
            Choose monthly ({PRICING.monthlyPerServerSsl} SSL per server for{' '}
            {PRICING.monthlyValidityDays} days) or hourly ({PRICING.hourlyPerServerSsl} SSL per
            hour, {PRICING.hourlyBlockHours} hours paid upfront) billing and confirm.
          </p>
        </li>
        <li>
          <h3>Import the connection</h3>
          <p>
            Your dashboard shows a QR code and a VLESS connection string for each server. Scan the
            code with your phone, or copy the string and import it into your app (see below).
          </p>
        </li>
        <li>
          <h3>Connect</h3>
          <p>
            Select the imported server in your app and connect. For multi-server subscriptions,
            import each server so you can switch if one becomes unreachable.
          </p>
        </li>
      </ol>
    </InfoSection>
  );
}
