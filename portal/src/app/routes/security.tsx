import type { ReactNode } from 'react';
import { Trans } from 'react-i18next';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { InfoSection } from '../../features/info/components/info-section';
import { TableOfContents } from '../../features/info/components/table-of-contents';
import { useDocumentTitle } from '../../features/info/use-document-title';
import { useT } from '../../lib/i18n/i18n';
import './security.css';

/** The sections, by anchor (the same Latin ids in every language) and catalogue key. */
const TOC = [
  { id: 'encryption', key: 'encryption' },
  { id: 'protocol-stack', key: 'protocolStack' },
  { id: 'censorship-resistance', key: 'censorshipResistance' },
  { id: 'active-defences', key: 'activeDefences' },
  { id: 'data-protection', key: 'dataProtection' },
  { id: 'port-management', key: 'portManagement' },
  { id: 'forecasting', key: 'forecasting' },
  { id: 'status', key: 'status' },
] as const;

const BADGES = ['reality', 'pinnedTls', 'dpi', 'noLogs'] as const;

/** The layers of the protocol stack, top to bottom. */
const PROTOCOL_STACK = ['apps', 'protocol', 'security', 'transport', 'core', 'agent'] as const;

const ACTIVE_DEFENCES = ['ddos', 'hacker', 'sniffer', 'scraper', 'injection'] as const;

/** /security (docs/product/screens.md#dashboards-and-information-pages): static description of how the network protects its users. */
export function SecurityRoute() {
  const { t } = useT('security');
  useDocumentTitle(t('documentTitle'));
  return (
    <div className="info-page page container">
      <InfoPageHeader eyebrow={t('eyebrow')} title={t('title')} lead={t('lead')}>
        <ul className="info-badges" aria-label={t('badges.label')}>
          {BADGES.map((badge) => (
            <li key={badge}>{t(`badges.${badge}`)}</li>
          ))}
        </ul>
      </InfoPageHeader>

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents
            title={t('toc.title')}
            items={TOC.map((item) => ({ id: item.id, label: t(`toc.${item.key}`) }))}
          />
        </aside>
        <div className="info-layout__main">
          <InfoSection id="encryption" title={t('encryption.title')} intro={t('encryption.intro')}>
            <div className="info-grid info-grid--3">
              <FeatureCard title={t('encryption.tunnel.title')}>
                {t('encryption.tunnel.text')}
              </FeatureCard>
              <FeatureCard title={t('encryption.clients.title')}>
                {t('encryption.clients.text')}
              </FeatureCard>
              <FeatureCard title={t('encryption.control.title')}>
                {t('encryption.control.text')}
              </FeatureCard>
            </div>
          </InfoSection>

          <InfoSection id="protocol-stack" title={t('stack.title')} intro={t('stack.intro')}>
            <ol className="security-stack">
              {PROTOCOL_STACK.map((row) => (
                <li key={row} className="security-stack__layer">
                  <span className="security-stack__name">{t(`stack.${row}.layer`)}</span>
                  <span className="security-stack__component">{t(`stack.${row}.component`)}</span>
                  <span className="security-stack__role">{t(`stack.${row}.role`)}</span>
                </li>
              ))}
            </ol>
          </InfoSection>

          <InfoSection id="censorship-resistance" title={t('dpi.title')} intro={t('dpi.intro')}>
            <div className="info-grid info-grid--2">
              <FeatureCard title={t('dpi.protection.title')}>
                {t('dpi.protection.text')}
              </FeatureCard>
              <FeatureCard title={t('dpi.obfuscation.title')}>
                {t('dpi.obfuscation.text')}
              </FeatureCard>
            </div>
          </InfoSection>

          <InfoSection id="active-defences" title={t('defences.title')} intro={t('defences.intro')}>
            <div className="info-grid info-grid--2">
              {ACTIVE_DEFENCES.map((defence) => (
                <FeatureCard key={defence} title={t(`defences.${defence}.title`)}>
                  {t(`defences.${defence}.text`)}
                </FeatureCard>
              ))}
            </div>
          </InfoSection>

          <InfoSection id="data-protection" title={t('data.title')} intro={t('data.intro')}>
            <div className="info-grid info-grid--2">
              <FeatureCard title={t('data.redaction.title')}>
                {t('data.redaction.text')}
              </FeatureCard>
              <FeatureCard title={t('data.logging.title')}>{t('data.logging.text')}</FeatureCard>
            </div>
          </InfoSection>

          <InfoSection id="port-management" title={t('ports.title')} intro={t('ports.intro')}>
            <ul className="check-list info-checklist">
              <li>
                <Trans
                  ns="security"
                  i18nKey="ports.persistent"
                  components={{ strong: <strong /> }}
                />
              </li>
              <li>
                <Trans
                  ns="security"
                  i18nKey="ports.regeneration"
                  components={{ strong: <strong /> }}
                />
              </li>
            </ul>
          </InfoSection>

          <InfoSection
            id="forecasting"
            title={t('forecasting.title')}
            intro={t('forecasting.intro')}
          >
            <p className="info-prose-block">{t('forecasting.text')}</p>
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
                {t('status.title')}
              </h2>
              <p className="security-status__text">{t('status.text')}</p>
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
