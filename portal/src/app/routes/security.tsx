import type { ReactNode } from 'react';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { InfoSection } from '../../features/info/components/info-section';
import { TableOfContents } from '../../features/info/components/table-of-contents';
import { useDocumentTitle } from '../../features/info/use-document-title';
import './security.css';

const TOC = [
  { id: 'encryption', label: 'Encryption' },
  { id: 'protocol-stack', label: 'Protocol stack' },
  { id: 'censorship-resistance', label: 'DPI protection & obfuscation' },
  { id: 'active-defences', label: 'Active defences' },
  { id: 'data-protection', label: 'Data redaction & logging' },
  { id: 'port-management', label: 'Port management' },
  { id: 'forecasting', label: 'Forecasting' },
  { id: 'status', label: 'System status' },
] as const;

const PROTOCOL_STACK = [
  {
    layer: 'Client apps',
    component: 'v2rayN, v2rayNG, Hiddify, Streisand, NekoBox, sing-box, Clash/mihomo',
    role: 'Import the subscription URL, a VLESS link or a QR code; each app gets its own format from the same URL. No custom software required.',
  },
  {
    layer: 'Proxy protocol',
    component: 'VLESS',
    role: 'Lightweight, stateless proxying; each client is authenticated by its own UUID.',
  },
  {
    layer: 'Transport security',
    component: 'REALITY + Vision (Xray) / TLS with a pinned certificate (v2ray)',
    role: 'Encrypts the tunnel. REALITY presents the handshake of a real website; TLS uses a certificate the node made, pinned in your links.',
  },
  {
    layer: 'Transport',
    component: 'TCP, WebSocket, gRPC',
    role: 'Chosen per node by its operator. WebSocket and gRPC can run behind a CDN; gRPC needs Xray.',
  },
  {
    layer: 'Proxy core',
    component: 'Xray (production) or v2ray 4.34',
    role: 'Runs on every agent node: Xray serves REALITY and TLS, Debian’s v2ray serves TLS only.',
  },
  {
    layer: 'Node management',
    component: 'scn-agent',
    role: 'Installs and updates the core, reports health every 60 seconds, never inspects traffic.',
  },
] as const;

interface Defence {
  title: string;
  text: ReactNode;
}

const ACTIVE_DEFENCES: readonly Defence[] = [
  {
    title: 'Anti-DDoS',
    text: 'Rate limits and connection caps at the node and the control plane absorb floods, and a client is never tied to a single server: multi-server subscriptions keep traffic flowing when one node is under attack.',
  },
  {
    title: 'Anti-hacker',
    text: 'Accounts are protected by hashed passwords and short-lived sessions; the node installer opens only the ports a node needs, and agents authenticate to the control plane with their own credentials.',
  },
  {
    title: 'Anti-sniffer',
    text: 'Everything between your device and an agent node is encrypted with REALITY or TLS, so an observer on the path sees only encrypted bytes, not destinations or content. Servers added without the agent use their operator’s own link and are marked “Shared credentials”.',
  },
  {
    title: 'Anti-scraper',
    text: 'Connection strings are issued per subscription and are only shown to their owner. Server lists cannot be harvested in bulk to build blocklists.',
  },
  {
    title: 'Anti-injection',
    text: 'Every API request is validated against a strict schema before it is processed; unknown fields are rejected, and database queries are parameterised.',
  },
];

/** /security (spec 02 §2): static description of how the network protects its users. */
export function SecurityRoute() {
  useDocumentTitle('Security');
  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow="Security"
        title="Security & Protection"
        lead="Censorship resistance is only as good as the security underneath it. This is how the Secure Connection Network keeps connections private, hard to detect and hard to disrupt."
      >
        <ul className="info-badges" aria-label="Highlights">
          <li>VLESS + REALITY</li>
          <li>Pinned TLS</li>
          <li>DPI resistant</li>
          <li>No-logs policy</li>
        </ul>
      </InfoPageHeader>

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents items={TOC} />
        </aside>
        <div className="info-layout__main">
          <EncryptionSection />

          <InfoSection
            id="protocol-stack"
            title="Protocol stack"
            intro="Proven, open components, each doing one job."
          >
            <ol className="security-stack">
              {PROTOCOL_STACK.map((row) => (
                <li key={row.layer} className="security-stack__layer">
                  <span className="security-stack__name">{row.layer}</span>
                  <span className="security-stack__component">{row.component}</span>
                  <span className="security-stack__role">{row.role}</span>
                </li>
              ))}
            </ol>
          </InfoSection>

          <InfoSection
            id="censorship-resistance"
            title="DPI protection and traffic obfuscation"
            intro="Censors use deep packet inspection to spot and block proxy traffic. Ours is built not to stand out."
          >
            <div className="info-grid info-grid--2">
              <FeatureCard title="DPI protection">
                Nodes running Xray serve VLESS with REALITY and the xtls-rprx-vision flow by
                default: the handshake is that of a real website, so a censor probing the server
                sees that site rather than a proxy, and Vision removes the tell-tale TLS-in-TLS
                packet sizes. Nodes running Debian’s v2ray (which has no REALITY) serve VLESS over
                TLS with a certificate the agent made at enrollment; your links carry its SHA-256
                pin, so apps check it instead of trusting any certificate. No node serves
                unencrypted VLESS by default.
              </FeatureCard>
              <FeatureCard title="Traffic obfuscation">
                Operators choose the transport per node: TCP, WebSocket or gRPC (gRPC with Xray).
                WebSocket and gRPC look like ordinary web traffic and can run behind a CDN. A
                growing pool of independent residential and cloud servers makes it impractical to
                block the network by address range.
              </FeatureCard>
            </div>
          </InfoSection>

          <InfoSection
            id="active-defences"
            title="Active defences"
            intro="Protection against the attacks a public network faces every day."
          >
            <div className="info-grid info-grid--2">
              {ACTIVE_DEFENCES.map((defence) => (
                <FeatureCard key={defence.title} title={defence.title}>
                  {defence.text}
                </FeatureCard>
              ))}
            </div>
          </InfoSection>

          <InfoSection
            id="data-protection"
            title="Data redaction and selective logging"
            intro="What is never collected can never leak."
          >
            <div className="info-grid info-grid--2">
              <FeatureCard title="Data redaction">
                Tokens, passwords, connection strings and wallet secrets are redacted before
                anything reaches an operational log or error report. Support staff see what they
                need to help you, nothing more.
              </FeatureCard>
              <FeatureCard title="Selective logging">
                We record only operational health (uptime, connection counts, ping and reliability
                per server) and how many bytes each subscription moved on each server per day, for
                your usage chart. We do not log browsing history, destinations, traffic content, IP
                addresses or sessions. Independent node operators must disclose their own practices.
              </FeatureCard>
            </div>
          </InfoSection>

          <InfoSection
            id="port-management"
            title="Port management"
            intro="Stable ports for clients, fast rotation when a port is burned."
          >
            <ul className="check-list info-checklist">
              <li>
                <strong>Persistent, machine-specific ports.</strong> When a node enrolls, the
                control plane gives that machine a random port of its own between 20000 and 32767
                (or the port its operator asked for), away from the ports well-known services use
                and below the range the machine uses for its own outgoing connections. It is stored
                centrally and kept across restarts and updates, so your connection string keeps
                working.
              </li>
              <li>
                <strong>Emergency regeneration.</strong> If a port is blocked or attacked, the
                node’s owner can regenerate it from Node Configuration (after a confirmation, at
                most once every 10 minutes). The new port is pushed to the node at once; links and
                subscription feeds switch as soon as the node reports serving it, usually within a
                minute, and your app picks it up on its next subscription refresh.
              </li>
            </ul>
          </InfoSection>

          <InfoSection id="forecasting" title="Forecasting" intro="Reacting before users notice.">
            <p className="info-prose-block">
              Health reports arrive from every node each minute. Trends in reliability, connection
              counts and latency let us forecast capacity shortages and failing servers before they
              happen: clients are steered toward healthy nodes, operators are warned when
              reliability starts to slip, and regions that are running short of capacity are flagged
              for new servers.
            </p>
          </InfoSection>

          <section
            id="status"
            className="security-status"
            role="status"
            aria-labelledby="status-heading"
          >
            <span className="security-status__pulse" aria-hidden="true" />
            <div>
              <h2 id="status-heading" className="security-status__title">
                All systems protected
              </h2>
              <p className="security-status__text">
                Encryption, DPI protection, active defences and monitoring are running across the
                network.
              </p>
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}

function FeatureCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="card info-card">
      <h3 className="info-card__title">{title}</h3>
      <p className="info-card__text">{children}</p>
    </article>
  );
}

/** Encryption: each hop protected on its own. */
function EncryptionSection() {
  return (
    <InfoSection
      id="encryption"
      title="Encryption"
      intro="Multi-layer encryption: each hop of the system is protected on its own, so a weakness in one layer does not expose the others."
    >
      <div className="info-grid info-grid--3">
        <FeatureCard title="REALITY or TLS on every agent tunnel">
          Connections between your device and an agent node use REALITY (Xray) or TLS with a pinned
          certificate (v2ray), both with ephemeral key exchange, giving forward secrecy: recorded
          traffic cannot be decrypted later even if a key leaks.
        </FeatureCard>
        <FeatureCard title="Per-client authentication">
          Inside the tunnel, VLESS authenticates each subscription with its own UUID. A node serves
          only clients holding a valid, active subscription.
        </FeatureCard>
        <FeatureCard title="Encrypted control channels">
          The portal, the control plane and node agents talk only over encrypted, authenticated
          connections. Credentials and wallet operations never travel in the clear.
        </FeatureCard>
      </div>
    </InfoSection>
  );
}
