import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { LegalDocument, type LegalSection } from '../../features/info/components/legal-document';
import { LEGAL_LAST_UPDATED } from '../../features/info/legal-dates';
import { useDocumentTitle } from '../../features/info/use-document-title';

/** spec 02 §2: the sections of the terms of service. */
const SECTIONS: readonly LegalSection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of Terms',
    body: (
      <p>
        By creating an account or using the Secure Connection Network ("SCN", the "Service"), you
        agree to these Terms of Service and to our{' '}
        <Link href={paths.privacyPolicy}>Protection Policy</Link>. If you do not agree, do not use
        the Service. You must be old enough to enter a binding contract where you live.
      </p>
    ),
  },
  {
    id: 'accounts',
    title: 'User Accounts',
    body: (
      <>
        <p>
          You register as either a client or a node operator. You agree to give a valid email
          address, keep your credentials confidential, and tell us promptly about any unauthorised
          use of your account.
        </p>
        <p>
          You are responsible for all activity under your account. One person or organisation may
          not use multiple accounts to get around limits, rewards rules or enforcement actions.
        </p>
      </>
    ),
  },
  {
    id: 'node-operator-terms',
    title: 'Node Operator Terms',
    body: (
      <>
        <p>If you run a node on the network, you agree to:</p>
        <ul>
          <li>
            provide accurate server information, including its location, capacity and hardware tier;
          </li>
          <li>maintain reasonable uptime and respond to reliability problems promptly;</li>
          <li>not log client traffic without disclosing it;</li>
          <li>disclose your data retention practices to the clients who use your server;</li>
          <li>comply with the laws that apply to the place where your server runs.</li>
        </ul>
        <p>
          Rewards are earned and paid under the rules on the{' '}
          <Link href={`${paths.economics}#node-operators`}>Service Economics</Link> page, including
          reliability slashing, frozen periods and the withdrawal protocol contribution. The
          provider may remove node operators from the network at its discretion.
        </p>
      </>
    ),
  },
  {
    id: 'client-terms',
    title: 'Client Terms',
    body: (
      <>
        <p>
          Clients pay for subscriptions in SSL credits at the rates shown when purchasing.
          Subscriptions give access to the selected servers for the purchased period or hours.
          Changing billing type is charged as shown and remaining time is not refunded.
        </p>
        <p>
          Servers are run by independent operators. We monitor their reliability but do not
          guarantee that any particular server will be available at all times. You are responsible
          for how you use your connection and for complying with the laws that apply to you.
        </p>
        <p>
          SSL tokens are non-tradable internal credits, not cryptocurrency, securities or
          investments. They have no value outside the network and cannot be exchanged for fiat or
          other assets.
        </p>
      </>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual Property',
    body: (
      <p>
        The Service, including its software, design, text, logos and trademarks, belongs to the
        provider or its licensors and is protected by intellectual property laws. We grant you a
        limited, revocable, non-exclusive, non-transferable licence to use the Service under these
        Terms. You may not copy, modify, reverse engineer or redistribute it except where the law
        allows or an open-source licence expressly permits.
      </p>
    ),
  },
  {
    id: 'user-content',
    title: 'User Content',
    body: (
      <p>
        You keep ownership of content you submit, such as server names, support messages and
        promotional posts. You grant us a worldwide, royalty-free licence to use it only as needed
        to run and promote the Service. You confirm that you have the right to submit it and that it
        does not infringe anyone's rights.
      </p>
    ),
  },
  {
    id: 'prohibited-uses',
    title: 'Prohibited Uses',
    body: (
      <>
        <p>You may not use the Service to:</p>
        <ul>
          <li>break any applicable law or help others do so;</li>
          <li>distribute malware, spam or phishing, or attack other systems;</li>
          <li>infringe intellectual property or privacy rights;</li>
          <li>exploit or harm minors;</li>
          <li>
            interfere with the network, its servers or other users, or probe them for
            vulnerabilities without permission;
          </li>
          <li>scrape, resell or sublicense access without our written consent;</li>
          <li>manipulate reliability reports, rewards, referrals or promotions.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'limitation-of-liability',
    title: 'Limitation of Liability',
    body: (
      <p>
        To the fullest extent permitted by law, the provider is not liable for indirect, incidental,
        special, consequential or punitive damages, or for loss of data, profits or goodwill,
        arising from your use of the Service or of servers run by independent node operators. Our
        total liability for any claim is limited to the amount you paid for the Service in
        connection with that claim.
      </p>
    ),
  },
  {
    id: 'disclaimer',
    title: 'Disclaimer',
    body: (
      <p>
        The Service is provided "as is" and "as available", without warranties of any kind, express
        or implied, including merchantability, fitness for a particular purpose and
        non-infringement. We do not warrant that the Service will be uninterrupted, error-free or
        able to bypass every form of network restriction.
      </p>
    ),
  },
  {
    id: 'anti-fraud',
    title: 'Anti-Fraud Policy',
    body: (
      <>
        <p>We do not tolerate fraud. Prohibited conduct includes:</p>
        <ul>
          <li>
            <strong>Payment fraud</strong>: stolen payment methods, chargeback abuse or fake
            deposits;
          </li>
          <li>
            <strong>Service misrepresentation</strong>: false server information, fake uptime or
            health reports, or inflated client counts;
          </li>
          <li>
            <strong>Identity fraud</strong>: impersonating another person or creating accounts under
            false identities;
          </li>
          <li>
            <strong>Data theft</strong>: collecting other users' data or connection credentials;
          </li>
          <li>
            <strong>Subscription abuse</strong>: reselling, sharing or manipulating subscriptions,
            pauses or rewards against these Terms.
          </li>
        </ul>
        <p>Consequences of fraud include:</p>
        <ul>
          <li>immediate termination of the accounts involved;</li>
          <li>forfeiture of SSL balances, frozen rewards and pending withdrawals;</li>
          <li>legal action where appropriate.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'legal-enforcement',
    title: 'Legal Enforcement',
    body: (
      <p>
        We may investigate suspected violations of these Terms, preserve relevant records that we
        hold, and cooperate with law enforcement where the law requires it. Because we keep no
        activity logs, we cannot provide browsing or connection records. We may suspend or terminate
        accounts that break these Terms.
      </p>
    ),
  },
  {
    id: 'dispute-resolution',
    title: 'Dispute Resolution',
    body: (
      <>
        <p>If a dispute arises, we ask you to follow these steps:</p>
        <ol>
          <li>
            <strong>Contact support first.</strong> Most problems are solved quickly through our{' '}
            <Link href={paths.support}>Support</Link> team.
          </li>
          <li>
            <strong>Optional mediation by the provider.</strong> If support cannot resolve it,
            either party may ask the provider to mediate.
          </li>
          <li>
            <strong>Non-binding mediation.</strong> Mediation is non-binding; either party remains
            free to reject the outcome.
          </li>
          <li>
            <strong>Legal action.</strong> Any legal action must be brought within one year after
            the claim arose.
          </li>
        </ol>
      </>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing Law',
    body: (
      <p>
        These Terms are governed by the laws of the United States and the State of California,
        without regard to conflict-of-law principles. Courts located in California have jurisdiction
        over any legal action that is not resolved through the steps above.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to These Terms',
    body: (
      <p>
        We may update these Terms from time to time. For material changes we give at least 30 days'
        notice by email or in the portal before they take effect. Continuing to use the Service
        after that means you accept the updated Terms.
      </p>
    ),
  },
];

/** /terms (spec 02 §2). */
export function TermsRoute() {
  useDocumentTitle('Terms of Service');
  return (
    <LegalDocument
      title="Terms of Service"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={
        <p>
          These Terms govern your use of the Secure Connection Network, a marketplace where
          independent node operators provide censorship-resistant network access to clients. Please
          read them carefully.
        </p>
      }
      sections={SECTIONS}
      footer={
        <p>
          Questions about these Terms? Visit our <Link href={paths.support}>Support</Link> page or
          email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      }
    />
  );
}
