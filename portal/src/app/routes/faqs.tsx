import { DEFAULT_SSL_PER_SOL, ECONOMICS, PRICING, SSL_USD_PRICE_TEXT, VPS_TIERS } from '@scn/proto';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { Accordion, type AccordionItem } from '../../features/info/components/accordion';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { SECURITY_EMAIL } from '../../features/info/security-email';
import { useDocumentTitle } from '../../features/info/use-document-title';
import './faqs.css';

interface FaqCategory {
  id: string;
  title: string;
  items: readonly AccordionItem[];
}

const firstTier = VPS_TIERS[0];
const lastTier = VPS_TIERS[VPS_TIERS.length - 1];

function faq(id: string, title: string, content: ReactNode): AccordionItem {
  return { id, title, content };
}

/** spec 02 §2: questions grouped by General, Node Operators, Clients, Technical, Support. */
const CATEGORIES: readonly FaqCategory[] = [
  {
    id: 'general',
    title: 'General',
    items: [
      faq(
        'what-is-scn',
        'What is the Secure Connection Network?',
        <p>
          SCN is a marketplace for secure, censorship-resistant network access. Independent node
          operators run VLESS proxy servers and earn SSL credits; clients spend SSL on subscriptions
          to the servers they choose and connect with a connection string or QR code in a standard
          client app.
        </p>,
      ),
      faq(
        'what-is-ssl',
        'What is SSL?',
        <>
          <p>
            SSL is the network's internal service credit. Its service rate is {SSL_USD_PRICE_TEXT}{' '}
            per SSL, so a one-server monthly subscription of {PRICING.monthlyPerServerSsl} SSL
            corresponds to $0.35.
          </p>
          <p>
            SSL tokens are non-tradable internal credits, not cryptocurrency, securities or
            investments. They have no value outside the network and cannot be exchanged for fiat or
            other assets.
          </p>
        </>,
      ),
      faq(
        'account-types',
        'What is the difference between a client and a node operator?',
        <p>
          Clients use the network: they hold a wallet, buy subscriptions and connect. Node operators
          provide the network: they run servers, monitor their health and earn SSL for every client
          they serve. You choose your account type when you sign up.
        </p>,
      ),
      faq(
        'free-launch',
        'Is access free at the moment?',
        <p>
          Yes. During the launch period access is complimentary through December 31, 2025. After
          that the standard rates on the <Link href={paths.economics}>Service Economics</Link> page
          apply.
        </p>,
      ),
      faq(
        'logs',
        'Does SCN keep logs of what I do?',
        <p>
          SCN follows a no-logs policy: we do not record browsing history, destinations, traffic
          content, IP addresses or session information. Node operators are independent and may log
          differently; they are required to disclose their practices. See our{' '}
          <Link href={paths.privacyPolicy}>Protection Policy</Link>.
        </p>,
      ),
    ],
  },
  {
    id: 'node-operators',
    title: 'Node Operators',
    items: [
      faq(
        'operator-requirements',
        'What do I need to run a node?',
        <p>
          A server or VPS running Ubuntu or Debian, root access, and a network connection of at
          least 100 Mbps each way with latency under 50 ms and unlimited data. The installer opens
          ports 22, 80, 443 and 10000-65535. You do not need a static IP, port forwarding or router
          changes. We recommend 8+ cores at 3.0+ GHz, 16+ GB RAM and a 500+ GB SSD for the higher
          reward tiers.
        </p>,
      ),
      faq(
        'operator-earnings',
        'How much can a node earn?',
        <p>
          Node income is the base reward for your tier, plus {PRICING.operatorRewardSsl} SSL per
          subscribed client, plus any ad bonus. The setup wizard's tiers range from{' '}
          {firstTier?.monthlyEarningsSsl} SSL a month ({firstTier?.usdValue}) for a{' '}
          {firstTier?.name} VPS to {lastTier?.monthlyEarningsSsl.toLocaleString('en-US')} SSL (
          {lastTier?.usdValue}) for {lastTier?.name}. A worked example is on the{' '}
          <Link href={`${paths.economics}#node-operators`}>economics page</Link>.
        </p>,
      ),
      faq(
        'operator-setup-time',
        'How long does setup take?',
        <p>
          Installation takes about 5 minutes with the one-line installer from the setup wizard in
          your node dashboard. The server then appears on your dashboard within 2 to 3 minutes.
          Step-by-step instructions are in the <Link href={paths.documentation}>documentation</Link>
          .
        </p>,
      ),
      faq(
        'operator-reliability',
        'What happens if my server goes offline?',
        <p>
          Reliability drops while health reports are stale, and rewards are slashed by 2% for every
          1% of reliability lost. Below {ECONOMICS.hideBelowReliabilityPercent}% the server is
          hidden from the network and its rewards are frozen. You then have {ECONOMICS.recoveryDays}{' '}
          days to recover; if you do not, the node is banned and the frozen rewards are cancelled.
        </p>,
      ),
      faq(
        'operator-withdraw',
        'When can I withdraw my earnings?',
        <p>
          Operator rewards are frozen for {PRICING.operatorRewardFrozenDays} days before they can be
          withdrawn. Withdrawals go to an external Solana address, and a{' '}
          {ECONOMICS.withdrawalProtocolFeePercent}% protocol contribution is applied on withdrawal.
        </p>,
      ),
      faq(
        'operator-hardware-age',
        'Do rewards change as my hardware ages?',
        <p>
          After {ECONOMICS.hardwareAgeYears} years without an upgrade, rewards and allowed clients
          are cut by {ECONOMICS.hardwareAgeCutPercent}%, unless you met the staking requirements:
          staking {ECONOMICS.stakingShareByYear.join('%, ')}% of monthly earnings in years 1 to 4.
          Staked SSL earns {ECONOMICS.stakingApyPercent}% APY.
        </p>,
      ),
    ],
  },
  {
    id: 'clients',
    title: 'Clients',
    items: [
      faq(
        'client-connect',
        'How do I connect?',
        <p>
          Sign up as a client, add funds, pick one or more servers in the{' '}
          <Link href={paths.servers}>server market</Link> and subscribe. Your dashboard then shows a
          QR code and a VLESS connection string for each server; scan or paste it into a client app
          such as v2rayN, v2rayNG, Hiddify, Streisand or NekoBox.
        </p>,
      ),
      faq(
        'client-billing',
        'What is the difference between monthly and hourly billing?',
        <p>
          Monthly billing costs {PRICING.monthlyPerServerSsl} SSL per server for{' '}
          {PRICING.monthlyValidityDays} days. Hourly billing costs {PRICING.hourlyPerServerSsl} SSL
          per hour, paid upfront in blocks of {PRICING.hourlyBlockHours} hours (
          {PRICING.monthlyPerServerSsl} SSL) per server.
        </p>,
      ),
      faq(
        'client-pause',
        'Can I pause a subscription?',
        <p>
          Yes. Hourly subscriptions can be paused {PRICING.hourlyPausesPerDay} times a day for up to{' '}
          {PRICING.hourlyPauseMaxHours} hours each. Monthly subscriptions include one free{' '}
          {PRICING.monthlyFreePauseDays}-day pause every {PRICING.monthlyFreePauseEveryMonths}{' '}
          months. Reactivating needs enough SSL in your wallet.
        </p>,
      ),
      faq(
        'client-change-type',
        'Can I switch between monthly and hourly?',
        <p>
          Yes, from your dashboard. A switch costs {PRICING.monthlyPerServerSsl} SSL per server,
          paid upfront, and the remaining time on the old plan is not refunded. If your balance
          cannot cover it, the subscription is paused automatically and you are told how much is
          needed.
        </p>,
      ),
      faq(
        'client-funds',
        'How do I add funds?',
        <p>
          Deposit SOL to your wallet from your dashboard; it is converted to SSL (by default{' '}
          {DEFAULT_SSL_PER_SOL.toLocaleString('en-US')} SSL per SOL when no live rate is available).
          Card deposits are not available yet. You can also earn SSL by sharing promotional posts.
        </p>,
      ),
      faq(
        'client-apps',
        'Which devices are supported?',
        <p>
          The client dashboard offers downloads for Windows 10/11 (x64) and macOS (Apple Silicon and
          Intel), each with a SHA-256 checksum to verify. On iOS and Android, use a third-party
          VLESS app such as Streisand, v2rayNG or Hiddify for now.
        </p>,
      ),
    ],
  },
  {
    id: 'technical',
    title: 'Technical',
    items: [
      faq(
        'tech-protocol',
        'Which protocol does SCN use?',
        <p>
          Agent nodes run the VLESS protocol with REALITY (Xray) or TLS with a pinned certificate
          (Debian’s v2ray). VLESS is a lightweight proxy protocol; TLS and REALITY make the
          connection look like ordinary HTTPS traffic to an observer. See the{' '}
          <Link href={paths.security}>Security</Link> page for the full stack.
        </p>,
      ),
      faq(
        'tech-dpi',
        'Can my network provider tell that I am using SCN?',
        <p>
          SCN is built to resist deep packet inspection: traffic is encrypted end to end and shaped
          like standard web traffic on common ports, so it does not carry an obvious proxy
          fingerprint. No tool can promise to be undetectable everywhere, which is why the network
          relies on many independent servers rather than a few well-known ones.
        </p>,
      ),
      faq(
        'tech-connection-string',
        'What is a VLESS connection string?',
        <>
          <p>A single line your client app imports, of the form:</p>
          <pre className="info-inline-code">
            <code>{'vless://<uuid>@<host>:<port>?<parameters>#<name>'}</code>
          </pre>
          <p>The QR code in your dashboard encodes the same string.</p>
        </>,
      ),
      faq(
        'tech-multi-server',
        'How do multi-server subscriptions work?',
        <p>
          A subscription can cover several servers. The QR dialog steps through them with previous
          and next arrows, and you can import each one, so your app can switch if a server becomes
          unreachable.
        </p>,
      ),
      faq(
        'tech-ports',
        'Which ports does a node use?',
        <p>
          The installer opens SSH (22), HTTP (80), HTTPS (443) and the range 10000-65535. Each
          machine keeps a persistent, machine-specific proxy port; conflicts are resolved on the
          server side, and ports can be regenerated in an emergency.
        </p>,
      ),
    ],
  },
  {
    id: 'support',
    title: 'Support',
    items: [
      faq(
        'support-contact',
        'How do I contact support?',
        <p>
          Use the Contact Support form on the <Link href={paths.support}>Support</Link> page or
          email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>,
      ),
      faq(
        'support-times',
        'How quickly will I get an answer?',
        <p>
          Email support replies within 24-48 hours. We aim to answer general questions within 2
          hours, technical issues within 4 hours and account issues within 24 hours.
        </p>,
      ),
      faq(
        'support-security',
        'How do I report a security issue?',
        <p>
          Emergency support for security issues is available 24/7. Email{' '}
          <a href={`mailto:${SECURITY_EMAIL}`}>{SECURITY_EMAIL}</a> with as much detail as you can.
        </p>,
      ),
      faq(
        'support-details',
        'What should I include in a support request?',
        <p>
          Your account email, whether you are a client or a node operator, the subscription or
          server name, what you expected and what happened, and any error message you saw. For node
          issues, the output of <code>scn-agent status</code> helps a lot.
        </p>,
      ),
    ],
  },
];

/** /faqs (spec 02 §2). */
export function FaqsRoute() {
  useDocumentTitle('FAQs');
  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow="Help"
        title="Frequently Asked Questions"
        lead="Quick answers about the network, running a node, subscriptions, the technology and getting help."
      />

      <nav className="faq-nav" aria-label="FAQ categories">
        {CATEGORIES.map((category) => (
          <a key={category.id} className="faq-nav__link" href={`#${category.id}`}>
            {category.title}
          </a>
        ))}
      </nav>

      <div className="faq-categories">
        {CATEGORIES.map((category) => (
          <section
            key={category.id}
            id={category.id}
            className="faq-category"
            aria-labelledby={`${category.id}-title`}
          >
            <h2 id={`${category.id}-title`} className="faq-category__title">
              {category.title}
            </h2>
            <Accordion items={category.items} />
          </section>
        ))}
      </div>

      <section className="info-cta" aria-labelledby="faq-more-title">
        <div>
          <h2 id="faq-more-title">Still have questions?</h2>
          <p>Our support team answers email within 24-48 hours.</p>
        </div>
        <Link href={paths.support} className={buttonClass({ variant: 'primary' })}>
          Go to Support
        </Link>
      </section>
    </div>
  );
}
