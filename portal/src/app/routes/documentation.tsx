import {
  DEFAULT_SSL_PER_SOL,
  ECONOMICS,
  PRICING,
  VPS_TIERS,
  tierMonthlyIncome,
  type VpsTier,
} from '@scn/proto';
import type { ReactElement } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../config/paths';
import { DataTable } from '../../features/economics/components/data-table';
import { CodeBlock } from '../../features/info/components/code-block';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { InfoSection } from '../../features/info/components/info-section';
import { TableOfContents } from '../../features/info/components/table-of-contents';
import { useDocumentTitle } from '../../features/info/use-document-title';
import { useT } from '../../lib/i18n/i18n';
import type { Locale } from '../../lib/i18n/locale';
import { launchPeriod } from '../../lib/launch-period';
import { roundToMicroSsl } from '../../lib/money';
import { ANDROID_RELEASES, launchEndText } from './help-pages';
import type docCatalogue from '../../locales/documentation/en.json';
import './documentation.css';

/** The sections, by their anchors (unchanged in every language) and their catalogue keys. */
const TOC = [
  { id: 'overview', key: 'overview' },
  { id: 'client-guide', key: 'clientGuide' },
  { id: 'client-apps', key: 'clientApps' },
  { id: 'operator-guide', key: 'operatorGuide' },
  { id: 'billing', key: 'billing' },
  { id: 'reliability', key: 'reliability' },
  { id: 'troubleshooting', key: 'troubleshooting' },
  { id: 'help', key: 'help' },
] as const;

const recommendedTier = VPS_TIERS.find((tier) => tier.recommended) ?? VPS_TIERS[0];

/** Import steps for the common VLESS apps. Menus differ slightly between app versions. */
const CLIENT_APPS = [
  { app: 'v2rayN', platforms: 'Windows, macOS', how: 'v2rayN' },
  { app: 'v2rayNG', platforms: 'Android', how: 'v2rayNG' },
  { app: 'Hiddify', platforms: 'Android, iOS, Windows, macOS, Linux', how: 'hiddify' },
  { app: 'Streisand', platforms: 'iOS, macOS', how: 'streisand' },
  { app: 'NekoBox', platforms: 'Android, Windows, Linux', how: 'nekoBox' },
] as const;

/** Each problem's key and how many fixes it lists (`troubleshooting.<key>.fix1...`). */
const TROUBLESHOOTING = [
  { key: 'cannotConnect', fixes: 4 },
  { key: 'qr', fixes: 2 },
  { key: 'funds', fixes: 1 },
  { key: 'pausedAfterChange', fixes: 1 },
  { key: 'nodeMissing', fixes: 3 },
  { key: 'reliabilityDrops', fixes: 2 },
  { key: 'withdraw', fixes: 1 },
] as const;
type FixNumber = 1 | 2 | 3 | 4;

const WITHDRAW_EXAMPLE = 100;

/** Every figure the text interpolates, from @scn/proto. */
const VALUES = {
  solRate: DEFAULT_SSL_PER_SOL,
  monthly: PRICING.monthlyPerServerSsl,
  monthlyDays: PRICING.monthlyValidityDays,
  hourly: PRICING.hourlyPerServerSsl,
  hourlyBlock: PRICING.hourlyBlockHours,
  freePauseDays: PRICING.monthlyFreePauseDays,
  freePauseMonths: PRICING.monthlyFreePauseEveryMonths,
  pausesPerDay: PRICING.hourlyPausesPerDay,
  pauseMaxHours: PRICING.hourlyPauseMaxHours,
  perClient: PRICING.operatorRewardSsl,
  frozenDays: PRICING.operatorRewardFrozenDays,
  fee: ECONOMICS.withdrawalProtocolFeePercent,
  example: WITHDRAW_EXAMPLE,
  exampleNet: roundToMicroSsl(
    (WITHDRAW_EXAMPLE * (100 - ECONOMICS.withdrawalProtocolFeePercent)) / 100,
  ),
  availableAt: ECONOMICS.availableAtReliability,
  hideBelow: ECONOMICS.hideBelowReliabilityPercent,
  recoveryDays: ECONOMICS.recoveryDays,
  tiers: VPS_TIERS.length,
};

/** The markup the text may use; commands, addresses and links to code stay left to right. */
const COMPONENTS: Record<string, ReactElement> = {
  strong: <strong />,
  em: <em />,
  code: <code dir="ltr" />,
  kbd: <kbd dir="ltr" />,
  economics: <Link href={paths.economics} />,
  servers: <Link href={paths.servers} />,
  nodeDashboard: <Link href={paths.nodeDashboard} />,
  faqs: <Link href={paths.faqs} />,
  support: <Link href={paths.support} />,
  token: <code dir="ltr">{'<YOUR_NODE_TOKEN>'}</code>,
  tiers: <code dir="ltr">{VPS_TIERS.map((tier) => tier.id).join(', ')}</code>,
  v2rayng: (
    <a href={ANDROID_RELEASES.v2rayNG} dir="ltr" rel="noreferrer" target="_blank">
      {ANDROID_RELEASES.v2rayNG.replace('https://', '')}
    </a>
  ),
  hiddify: (
    <a href={ANDROID_RELEASES.hiddify} dir="ltr" rel="noreferrer" target="_blank">
      {ANDROID_RELEASES.hiddify.replace('https://', '')}
    </a>
  ),
};

/** A message of the documentation catalogue with the page's values and markup. */
function Text({ k, values }: { k: DocKey; values?: Record<string, unknown> }) {
  return (
    <Trans
      ns="documentation"
      i18nKey={k}
      values={values ? { ...VALUES, ...values } : VALUES}
      components={COMPONENTS}
    />
  );
}
/** Every message of the catalogue, by its dotted key. */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type DocKey = Leaves<typeof docCatalogue>;

/**
 * The client guide's sentence on the launch period: free access only while it lasts
 * (`launchPeriod()`), after it a plain statement that it has ended.
 */
export function launchSentenceKey(now: Date = new Date()) {
  return launchPeriod(now).active
    ? 'clientGuide.funds.launchActive'
    : 'clientGuide.funds.launchEnded';
}

/** /documentation (docs/product/screens.md#dashboards-and-information-pages): the user guide for clients and node operators. */
export function DocumentationRoute() {
  const { t } = useT('documentation');
  useDocumentTitle(t('documentTitle'));
  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow={t('header.eyebrow')}
        title={t('header.title')}
        lead={t('header.lead')}
      />

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents
            title={t('toc.title')}
            items={TOC.map(({ id, key }) => ({ id, label: t(`toc.${key}`) }))}
          />
        </aside>
        <div className="info-layout__main prose">
          <InfoSection id="overview" title={t('toc.overview')}>
            <p>
              <Text k="overview.p1" />
            </p>
            <p>
              <Text k="overview.p2" />
            </p>
          </InfoSection>

          <ClientGuideSection />

          <InfoSection id="client-apps" title={t('toc.clientApps')}>
            <p>
              <Text k="clientApps.intro" />
            </p>
            <p data-testid="docs-android-apk">
              <Text k="clientApps.android" />
            </p>
            <p>
              <Text k="clientApps.ios" />
            </p>
            <DataTable
              caption={t('clientApps.caption')}
              captionHidden
              head={[
                t('clientApps.head.app'),
                t('clientApps.head.platforms'),
                t('clientApps.head.how'),
              ]}
              rows={CLIENT_APPS.map(({ app, platforms, how }) => [
                <bdi key="app">{app}</bdi>,
                <bdi key="platforms">{platforms}</bdi>,
                <Text key="how" k={`clientApps.how.${how}`} />,
              ])}
            />
            <p>{t('clientApps.form')}</p>
            <CodeBlock code="vless://<uuid>@<host>:<port>?<parameters>#<name>" />
          </InfoSection>

          <OperatorGuideSection />

          <InfoSection id="billing" title={t('toc.billing')}>
            <ul>
              <li>
                <Text k="billing.monthly" />
              </li>
              <li>
                <Text k="billing.hourly" />
              </li>
              <li>
                <Text k="billing.change" />
              </li>
              <li>
                <Text k="billing.operators" />
              </li>
            </ul>
            <p>
              <Text k="billing.examples" />
            </p>
          </InfoSection>

          <InfoSection id="reliability" title={t('toc.reliability')}>
            <p>
              <Text k="reliability.p1" />
            </p>
            <p>
              <Text k="reliability.p2" />
            </p>
          </InfoSection>

          <InfoSection id="troubleshooting" title={t('toc.troubleshooting')}>
            <div className="doc-problems">
              {TROUBLESHOOTING.map(({ key, fixes }) => (
                <article key={key} className="doc-problem">
                  <h3>{t(`troubleshooting.${key}.title`)}</h3>
                  <ul>
                    {Array.from({ length: fixes }, (_, index) => (
                      <li key={index}>
                        <Text
                          k={`troubleshooting.${key}.fix${(index + 1) as FixNumber}` as DocKey}
                        />
                      </li>
                    ))}
                  </ul>
                </article>
              ))}
            </div>
          </InfoSection>

          <InfoSection id="help" title={t('toc.help')}>
            <p>
              <Text k="help.text" />
            </p>
          </InfoSection>
        </div>
      </div>
    </div>
  );
}

/** The tiers with their monthly income, from the one source the wizard and statement use. */
function TierTable() {
  const { t } = useT('documentation');
  const ssl = (amount: number) => t('operatorGuide.tier.ssl', { amount });
  const name = (tier: VpsTier) =>
    t('operatorGuide.tier.name', { cores: tier.vcpu, ram: tier.ramGb });
  return (
    <DataTable
      caption={t('operatorGuide.tier.caption')}
      head={[
        t('operatorGuide.tier.head.tier'),
        t('operatorGuide.tier.head.maxClients'),
        t('operatorGuide.tier.head.base'),
        t('operatorGuide.tier.head.clients'),
        t('operatorGuide.tier.head.total'),
      ]}
      numeric={[1, 2, 3, 4]}
      hideOnNarrow={[2, 3]}
      rows={VPS_TIERS.map((tier) => {
        const income = tierMonthlyIncome(tier);
        return [
          <span key="name">
            {name(tier)}
            {tier.recommended ? (
              <span className="econ-badge">{t('operatorGuide.tier.recommended')}</span>
            ) : null}
          </span>,
          t('operatorGuide.tier.count', { clients: income.maxClients }),
          ssl(income.baseSsl),
          ssl(income.clientsSsl),
          ssl(income.totalSsl),
        ];
      })}
    />
  );
}

/** Running a node: requirements, tier, money rules, install command and the check. */
function OperatorGuideSection() {
  const { t } = useT('documentation');
  const site = typeof window === 'undefined' ? 'https://your-scn-site' : window.location.origin;
  const installCommand = `curl -fsSL ${site}/install.sh | sudo bash -s -- --token <YOUR_NODE_TOKEN> --tier ${recommendedTier?.id ?? 'tier2'}`;

  return (
    <InfoSection id="operator-guide" title={t('toc.operatorGuide')}>
      <h3>{t('operatorGuide.requirements.title')}</h3>
      <ul>
        <li>{t('operatorGuide.requirements.os')}</li>
        <li>{t('operatorGuide.requirements.ports')}</li>
        <li>{t('operatorGuide.requirements.network')}</li>
        <li>{t('operatorGuide.requirements.noStaticIp')}</li>
      </ul>

      <h3>{t('operatorGuide.tier.title')}</h3>
      <p>
        <Text k="operatorGuide.tier.text" />
      </p>
      <TierTable />

      <h3>{t('operatorGuide.money.title')}</h3>
      <ul data-testid="docs-operator-money">
        <li>
          <Text k="operatorGuide.money.frozen" />
        </li>
        <li>
          <Text k="operatorGuide.money.fee" />
        </li>
      </ul>

      <h3>{t('operatorGuide.install.title')}</h3>
      <ol>
        <li>
          <Text k="operatorGuide.install.step1" />
        </li>
        <li>
          <Text k="operatorGuide.install.step2" />
        </li>
        <li>
          <Text k="operatorGuide.install.step3" />
        </li>
      </ol>
      <CodeBlock code={installCommand} />
      <p>
        <Text k="operatorGuide.install.after" />
      </p>

      <h3>{t('operatorGuide.verify.title')}</h3>
      <p>{t('operatorGuide.verify.text')}</p>
      <CodeBlock code="scn-agent status" />
      <p>{t('operatorGuide.verify.after')}</p>
    </InfoSection>
  );
}

/** Getting started as a client, step by step. */
function ClientGuideSection() {
  const { t, locale } = useT('documentation');
  return (
    <InfoSection id="client-guide" title={t('toc.clientGuide')}>
      <ol className="doc-steps">
        <li>
          <h3>{t('clientGuide.account.title')}</h3>
          <p>
            <Text k="clientGuide.account.text" />
          </p>
        </li>
        <li>
          <h3>{t('clientGuide.funds.title')}</h3>
          <p data-testid="docs-funds">
            <Text k="clientGuide.funds.text" /> <LaunchSentence locale={locale} />
          </p>
        </li>
        <li>
          <h3>{t('clientGuide.servers.title')}</h3>
          <p>
            <Text k="clientGuide.servers.text" />
          </p>
        </li>
        <li>
          <h3>{t('clientGuide.subscribe.title')}</h3>
          <p>
            <Text k="clientGuide.subscribe.text" />
          </p>
        </li>
        <li>
          <h3>{t('clientGuide.import.title')}</h3>
          <p>
            <Text k="clientGuide.import.text" />
          </p>
        </li>
        <li>
          <h3>{t('clientGuide.connect.title')}</h3>
          <p>
            <Text k="clientGuide.connect.text" />
          </p>
        </li>
      </ol>
    </InfoSection>
  );
}

function LaunchSentence({ locale }: { locale: Locale }) {
  return (
    <Text
      k={launchSentenceKey()}
      values={{ date: launchEndText(launchPeriod().lastDay, locale) }}
    />
  );
}
