import { ECONOMICS, PRICING } from '@scn/proto';
import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { LegalDocument, type LegalSection } from '../../features/info/components/legal-document';
import { LEGAL_LAST_UPDATED } from '../../features/info/legal-dates';
import { useDocumentTitle } from '../../features/info/use-document-title';
import { useT } from '../../lib/i18n/i18n';

/** docs/product/screens.md#dashboards-and-information-pages: the sections of the terms of service. */
const SECTIONS: readonly LegalSection[] = [
  {
    id: 'acceptance',
    title: 'terms.acceptance.title',
    body: [{ p: 'terms.acceptance.text' }],
  },
  {
    id: 'accounts',
    title: 'terms.accounts.title',
    body: [{ p: 'terms.accounts.register' }, { p: 'terms.accounts.responsibility' }],
  },
  {
    id: 'node-operator-terms',
    title: 'terms.operators.title',
    body: [
      { p: 'terms.operators.lead' },
      {
        ul: [
          'terms.operators.accurate',
          'terms.operators.uptime',
          'terms.operators.logging',
          'terms.operators.retention',
          'terms.operators.laws',
        ],
      },
      { p: 'terms.operators.rewards' },
    ],
  },
  {
    id: 'client-terms',
    title: 'terms.clients.title',
    body: [
      { p: 'terms.clients.payment' },
      { p: 'terms.clients.servers' },
      { p: 'terms.clients.credits' },
    ],
  },
  {
    id: 'intellectual-property',
    title: 'terms.ip.title',
    body: [{ p: 'terms.ip.text' }],
  },
  {
    id: 'user-content',
    title: 'terms.content.title',
    body: [{ p: 'terms.content.text' }],
  },
  {
    id: 'prohibited-uses',
    title: 'terms.prohibited.title',
    body: [
      { p: 'terms.prohibited.lead' },
      {
        ul: [
          'terms.prohibited.law',
          'terms.prohibited.malware',
          'terms.prohibited.rights',
          'terms.prohibited.minors',
          'terms.prohibited.interfere',
          'terms.prohibited.resell',
          'terms.prohibited.manipulate',
        ],
      },
    ],
  },
  {
    id: 'limitation-of-liability',
    title: 'terms.liability.title',
    body: [{ p: 'terms.liability.text' }],
  },
  {
    id: 'disclaimer',
    title: 'terms.disclaimer.title',
    body: [{ p: 'terms.disclaimer.text' }],
  },
  {
    id: 'anti-fraud',
    title: 'terms.antiFraud.title',
    body: [
      { p: 'terms.antiFraud.lead' },
      {
        ul: [
          'terms.antiFraud.payment',
          'terms.antiFraud.misrepresentation',
          'terms.antiFraud.identity',
          'terms.antiFraud.theft',
          'terms.antiFraud.subscriptions',
        ],
      },
      { p: 'terms.antiFraud.consequencesLead' },
      {
        ul: [
          'terms.antiFraud.termination',
          'terms.antiFraud.forfeiture',
          'terms.antiFraud.legalAction',
        ],
      },
    ],
  },
  {
    id: 'legal-enforcement',
    title: 'terms.enforcement.title',
    body: [{ p: 'terms.enforcement.text' }],
  },
  {
    id: 'dispute-resolution',
    title: 'terms.disputes.title',
    body: [
      { p: 'terms.disputes.lead' },
      {
        ol: [
          'terms.disputes.support',
          'terms.disputes.mediation',
          'terms.disputes.nonBinding',
          'terms.disputes.legalAction',
        ],
      },
    ],
  },
  {
    id: 'governing-law',
    title: 'terms.law.title',
    body: [{ p: 'terms.law.text' }],
  },
  {
    id: 'changes',
    title: 'terms.changes.title',
    body: [{ p: 'terms.changes.text' }],
  },
];

/** /terms (docs/product/screens.md#dashboards-and-information-pages). */
export function TermsRoute() {
  const { t } = useT('legal');
  useDocumentTitle(t('terms.title'));
  return (
    <LegalDocument
      title="terms.title"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={[{ p: 'terms.intro' }]}
      sections={SECTIONS}
      footer={[{ p: 'terms.footer' }]}
      values={{
        supportEmail: SUPPORT_EMAIL,
        // The fee and the freeze as the code applies them (@scn/proto economics).
        feePercent: ECONOMICS.withdrawalProtocolFeePercent,
        frozenDays: PRICING.operatorRewardFrozenDays,
      }}
      components={{
        privacyLink: <Link href={paths.privacyPolicy} />,
        supportLink: <Link href={paths.support} />,
        economicsLink: <Link href={`${paths.economics}#node-operators`} />,
        supportMail: <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr" />,
      }}
    />
  );
}
