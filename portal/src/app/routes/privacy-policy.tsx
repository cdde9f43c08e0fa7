import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { LegalDocument, type LegalSection } from '../../features/info/components/legal-document';
import { LEGAL_LAST_UPDATED } from '../../features/info/legal-dates';
import { SECURITY_EMAIL } from '../../features/info/security-email';
import { useDocumentTitle } from '../../features/info/use-document-title';
import { useT } from '../../lib/i18n/i18n';

/** docs/product/screens.md#dashboards-and-information-pages: the sections of the privacy policy, shown as "Protection Policy". */
const SECTIONS: readonly LegalSection[] = [
  {
    id: 'information-we-collect',
    title: 'privacy.collect.title',
    body: [
      { p: 'privacy.collect.lead' },
      {
        ul: [
          'privacy.collect.email',
          'privacy.collect.credentials',
          'privacy.collect.payments',
          'privacy.collect.records',
          'privacy.collect.preferences',
        ],
      },
      { p: 'privacy.collect.operators' },
    ],
  },
  {
    id: 'no-logs-policy',
    title: 'privacy.noLogs.title',
    body: [
      { p: 'privacy.noLogs.lead' },
      {
        ul: [
          'privacy.noLogs.history',
          'privacy.noLogs.destinations',
          'privacy.noLogs.content',
          'privacy.noLogs.addresses',
          'privacy.noLogs.sessions',
        ],
      },
      { p: 'privacy.noLogs.usage' },
      { p: 'privacy.noLogs.operators' },
    ],
  },
  {
    id: 'how-we-use-information',
    title: 'privacy.use.title',
    body: [
      { p: 'privacy.use.lead' },
      {
        ul: [
          'privacy.use.account',
          'privacy.use.service',
          'privacy.use.health',
          'privacy.use.fraud',
          'privacy.use.support',
          'privacy.use.updates',
        ],
      },
      { p: 'privacy.use.noSale' },
    ],
  },
  {
    id: 'information-sharing',
    title: 'privacy.sharing.title',
    body: [
      { p: 'privacy.sharing.lead' },
      {
        ul: [
          'privacy.sharing.providers',
          'privacy.sharing.legal',
          'privacy.sharing.safety',
          'privacy.sharing.transfers',
        ],
      },
      { p: 'privacy.sharing.operators' },
    ],
  },
  {
    id: 'fraud-prevention',
    title: 'privacy.fraud.title',
    body: [{ p: 'privacy.fraud.detection' }, { p: 'privacy.fraud.holds' }],
  },
  {
    id: 'data-security',
    title: 'privacy.security.title',
    body: [{ p: 'privacy.security.text' }],
  },
  {
    id: 'your-rights',
    title: 'privacy.rights.title',
    body: [
      { p: 'privacy.rights.lead' },
      {
        ul: [
          'privacy.rights.access',
          'privacy.rights.rectify',
          'privacy.rights.delete',
          'privacy.rights.restrict',
          'privacy.rights.portability',
          'privacy.rights.object',
        ],
      },
      { p: 'privacy.rights.contact' },
    ],
  },
  {
    id: 'changes',
    title: 'privacy.changes.title',
    body: [{ p: 'privacy.changes.text' }],
  },
  {
    id: 'security-reporting',
    title: 'privacy.reporting.title',
    body: [{ p: 'privacy.reporting.text' }],
  },
];

/** /privacy-policy (docs/product/screens.md#dashboards-and-information-pages), titled "Protection Policy". */
export function PrivacyPolicyRoute() {
  const { t } = useT('legal');
  useDocumentTitle(t('privacy.title'));
  return (
    <LegalDocument
      title="privacy.title"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={[{ p: 'privacy.intro' }]}
      sections={SECTIONS}
      footer={[{ p: 'privacy.footer' }]}
      values={{ supportEmail: SUPPORT_EMAIL, securityEmail: SECURITY_EMAIL }}
      components={{
        termsLink: <Link href={paths.terms} />,
        supportLink: <Link href={paths.support} />,
        supportMail: <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr" />,
        securityMail: <a href={`mailto:${SECURITY_EMAIL}`} dir="ltr" />,
      }}
    />
  );
}
