import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { LegalDocument, type LegalSection } from '../../features/info/components/legal-document';
import { LEGAL_LAST_UPDATED } from '../../features/info/legal-dates';
import { SECURITY_EMAIL } from '../../features/info/security-email';
import { useDocumentTitle } from '../../features/info/use-document-title';

/** spec 02 §2: the sections of the privacy policy, shown as "Protection Policy". */
const SECTIONS: readonly LegalSection[] = [
  {
    id: 'information-we-collect',
    title: 'Information We Collect',
    body: (
      <>
        <p>We collect only what we need to run your account and the marketplace:</p>
        <ul>
          <li>
            <strong>Email address</strong>, used to identify your account and to contact you.
          </li>
          <li>
            <strong>Account credentials</strong>. Passwords are stored only as salted hashes; we
            never store them in readable form.
          </li>
          <li>
            <strong>Payment information</strong>. Deposits are handled by third-party payment
            processors and blockchain networks. We record the amounts credited to your wallet, not
            your card or bank details.
          </li>
          <li>
            <strong>Communication preferences</strong>, such as whether you want product updates and
            your cookie choices.
          </li>
        </ul>
        <p>
          For node operators we also keep the server details you submit (name, address, port,
          connection string) and the operational health metrics your node reports: uptime,
          connection counts, ping and reliability.
        </p>
      </>
    ),
  },
  {
    id: 'no-logs-policy',
    title: 'No-Logs Policy',
    body: (
      <>
        <p>The Secure Connection Network does not log how you use the network. We do not record:</p>
        <ul>
          <li>your browsing history;</li>
          <li>the destinations you connect to;</li>
          <li>the content of your traffic;</li>
          <li>the IP addresses you connect from or to;</li>
          <li>session information such as connection times and durations.</li>
        </ul>
        <p>
          <strong>Node operators are independent.</strong> The servers in the marketplace are run by
          independent operators, who may log differently from us. Operators must disclose their
          logging and retention practices, and we ask every operator to keep no traffic logs. Choose
          servers whose practices you are comfortable with.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-use-information',
    title: 'How We Use Information',
    body: (
      <>
        <p>We use the information above to:</p>
        <ul>
          <li>create and secure your account and sign you in;</li>
          <li>provide subscriptions, credit wallets and pay node operators their rewards;</li>
          <li>measure server health and reliability so clients see dependable servers;</li>
          <li>detect and prevent fraud and abuse;</li>
          <li>answer your support requests and send service notices;</li>
          <li>send product updates, if you agreed to receive them.</li>
        </ul>
        <p>We do not sell your information and do not use it for advertising profiles.</p>
      </>
    ),
  },
  {
    id: 'information-sharing',
    title: 'Information Sharing',
    body: (
      <>
        <p>We share information only when it is necessary:</p>
        <ul>
          <li>
            <strong>Service providers</strong> such as payment processors and email delivery
            services, bound to use it only on our behalf;
          </li>
          <li>
            <strong>Legal requirements</strong>, when we must respond to a valid legal request.
            Because we keep no activity logs, we have no browsing or connection records to hand
            over;
          </li>
          <li>
            <strong>Protection of rights and safety</strong>, to investigate fraud or protect users
            and the network;
          </li>
          <li>
            <strong>Business transfers</strong>, if the service is reorganised or transferred, under
            the same protections.
          </li>
        </ul>
        <p>Node operators do not receive your email address or account details.</p>
      </>
    ),
  },
  {
    id: 'fraud-prevention',
    title: 'Fraud Prevention',
    body: (
      <>
        <p>
          To protect clients and operators we use automated detection of suspicious activity, for
          example unusual deposit, subscription or withdrawal patterns and misreported server
          information.
        </p>
        <p>
          When something looks wrong we may place a temporary hold on the affected balance,
          subscription or withdrawal while it is reviewed. Holds are lifted once the activity is
          confirmed as legitimate; confirmed fraud is handled under our{' '}
          <Link href={paths.terms}>Terms of Service</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'data-security',
    title: 'Data Security',
    body: (
      <p>
        Account data is transmitted over TLS, passwords are hashed, access to production systems is
        restricted and monitored, and sensitive values are redacted from operational logs. No system
        is perfectly secure, but we design ours so that the little we hold is well protected, and so
        that what we never collect cannot leak.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your Rights',
    body: (
      <>
        <p>Depending on where you live, you have the right to:</p>
        <ul>
          <li>
            <strong>access</strong> the personal information we hold about you;
          </li>
          <li>
            <strong>rectify</strong> information that is inaccurate;
          </li>
          <li>
            <strong>delete</strong> your account and personal information;
          </li>
          <li>
            <strong>restrict</strong> how we process your information;
          </li>
          <li>
            <strong>data portability</strong>: receive your information in a portable format;
          </li>
          <li>
            <strong>object</strong> to processing based on our legitimate interests.
          </li>
        </ul>
        <p>
          To exercise any of these rights, contact us at{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We answer within the time the law
          requires.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to This Policy',
    body: (
      <p>
        We may update this policy as the service evolves. The date at the top shows the latest
        version. For material changes we will notify you by email or through the portal before they
        take effect.
      </p>
    ),
  },
  {
    id: 'security-reporting',
    title: 'Security Reporting',
    body: (
      <p>
        If you find a vulnerability or suspect a security incident, please email{' '}
        <a href={`mailto:${SECURITY_EMAIL}`}>{SECURITY_EMAIL}</a>. Security issues are handled 24/7.
        Please give us a reasonable time to fix an issue before disclosing it publicly.
      </p>
    ),
  },
];

/** /privacy-policy (spec 02 §2), titled "Protection Policy". */
export function PrivacyPolicyRoute() {
  useDocumentTitle('Protection Policy');
  return (
    <LegalDocument
      title="Protection Policy"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={
        <p>
          This policy explains what information the Secure Connection Network ("SCN", "we")
          collects, what it deliberately does not collect, and how we protect what we hold. It
          applies to the portal and to the services we provide to clients and node operators.
        </p>
      }
      sections={SECTIONS}
      footer={
        <p>
          Questions about this policy? Visit our <Link href={paths.support}>Support</Link> page or
          email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      }
    />
  );
}
