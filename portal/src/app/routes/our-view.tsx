import { ECONOMICS, PRICING, SSL_USD_PRICE } from '@scn/proto';
import { DataTable } from '../../features/economics/components/data-table';
import {
  BASE_SERVERS,
  REDUNDANCY_PERCENT,
  RESTRICTED_COUNTRIES,
  SERVERS_WITH_REDUNDANCY,
  TARGET_SHARE_PERCENT,
  TARGET_USERS,
  TIER_PLAN,
  TOTAL_RESTRICTED_USERS,
  type MarketRegion,
} from '../../features/economics/market-model';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { InfoSection } from '../../features/info/components/info-section';
import { TableOfContents } from '../../features/info/components/table-of-contents';
import { useDocumentTitle } from '../../features/info/use-document-title';
import { formatDate, formatNumber } from '../../lib/i18n/format';
import { useT } from '../../lib/i18n/i18n';
import { INTL_TAGS, type Locale } from '../../lib/i18n/locale';
import { launchPeriod } from '../../lib/launch-period';

/** The sections, by anchor (the same Latin ids in every language) and catalogue key. */
const TOC = [
  { id: 'market', key: 'market' },
  { id: 'tier-model', key: 'tierModel' },
  { id: 'infrastructure', key: 'infrastructure' },
  { id: 'placement', key: 'placement' },
  { id: 'highlights', key: 'highlights' },
] as const;

/** Each region's catalogue key (its name and where to place servers for it). */
const REGION_KEYS = {
  'East Asia': 'eastAsia',
  'Middle East & North Africa': 'middleEast',
  'Eastern Europe & Central Asia': 'easternEurope',
  'South & Southeast Asia': 'southAsia',
  'Sub-Saharan Africa': 'africa',
  'Latin America & Caribbean': 'latinAmerica',
} as const satisfies Record<MarketRegion, string>;

/** The tiers of the capacity plan, in `TIER_PLAN`'s order. */
const TIER_KEYS = ['laptop', 'desktop', 'smallServer', 'dedicated'] as const;

/** The model's countries by ISO code, so each language names them (`Intl.DisplayNames`). */
const COUNTRY_CODES: Readonly<Record<string, string>> = {
  China: 'CN',
  Iran: 'IR',
  Russia: 'RU',
  Pakistan: 'PK',
  Turkey: 'TR',
  Vietnam: 'VN',
  Egypt: 'EG',
  'Saudi Arabia': 'SA',
  Myanmar: 'MM',
  'United Arab Emirates': 'AE',
  Uzbekistan: 'UZ',
  Venezuela: 'VE',
  Belarus: 'BY',
  Kazakhstan: 'KZ',
  Ethiopia: 'ET',
  Cuba: 'CU',
  Turkmenistan: 'TM',
  Tajikistan: 'TJ',
};

const regionNames = new Map<Locale, Intl.DisplayNames | null>();

/** A country of the model in the reader's language (English as the model spells it). */
function countryName(country: string, locale: Locale): string {
  const code = COUNTRY_CODES[country];
  if (locale === 'en' || !code) return country;
  if (!regionNames.has(locale)) {
    try {
      regionNames.set(locale, new Intl.DisplayNames([INTL_TAGS[locale]], { type: 'region' }));
    } catch {
      regionNames.set(locale, null);
    }
  }
  return regionNames.get(locale)?.of(code) ?? country;
}

/** Large counts in words, in the reader's language: "273 million", "۲۷۳ میلیون", "2.73亿". */
function millions(value: number, locale: Locale): string {
  return formatNumber(value, locale, {
    notation: 'compact',
    compactDisplay: 'long',
    maximumFractionDigits: 2,
  });
}

/** docs/product/overview.md#what-scn-is: 1 SSL = $0.035, from the exact fraction, in the reader's digits. */
function usdOfSsl(ssl: number, locale: Locale): string {
  return formatNumber((ssl * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator, locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

const REGIONS = Array.from(new Set(RESTRICTED_COUNTRIES.map((entry) => entry.region)));

/** /our-view (docs/product/screens.md#dashboards-and-information-pages, docs/product/constants.md#billing-and-the-economy): market analysis behind the network. */
export function OurViewRoute() {
  const { t, locale } = useT('our-view');
  useDocumentTitle(t('documentTitle'));
  const number = (value: number, digits = 0) =>
    formatNumber(value, locale, { maximumFractionDigits: digits });
  const percent = (value: number) => formatNumber(value / 100, locale, { style: 'percent' });
  const range = { min: REDUNDANCY_PERCENT.min, max: REDUNDANCY_PERCENT.max };
  return (
    <div className="info-page page container">
      <InfoPageHeader eyebrow={t('eyebrow')} title={t('title')} lead={t('lead')} />

      <div className="info-stats" aria-label={t('stats.label')}>
        <Stat
          value={t('stats.approximately', { value: millions(TOTAL_RESTRICTED_USERS, locale) })}
          label={t('stats.restrictedUsers')}
        />
        <Stat value={number(RESTRICTED_COUNTRIES.length)} label={t('stats.countries')} />
        <Stat
          value={millions(TARGET_USERS, locale)}
          label={t('stats.targetUsers', { percent: TARGET_SHARE_PERCENT })}
        />
        <Stat
          value={t('stats.approximately', { value: number(20_000) })}
          label={t('stats.servers')}
        />
      </div>

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents
            title={t('toc.title')}
            items={TOC.map((item) => ({ id: item.id, label: t(`toc.${item.key}`) }))}
          />
        </aside>
        <div className="info-layout__main">
          <InfoSection id="market" title={t('market.title')} intro={t('market.intro')}>
            <DataTable
              caption={t('market.caption')}
              captionHidden
              head={[
                t('market.head.country'),
                t('market.head.region'),
                t('market.head.users'),
                t('market.head.share'),
              ]}
              numeric={[2, 3]}
              hideOnNarrow={[1]}
              rows={RESTRICTED_COUNTRIES.map((entry) => [
                countryName(entry.country, locale),
                t(`regions.${REGION_KEYS[entry.region]}.name`),
                millions(entry.estimatedUsers, locale),
                formatNumber(entry.estimatedUsers / TOTAL_RESTRICTED_USERS, locale, {
                  style: 'percent',
                  minimumFractionDigits: 1,
                  maximumFractionDigits: 1,
                }),
              ])}
              foot={[
                t('market.total'),
                t('market.countries', { count: RESTRICTED_COUNTRIES.length }),
                millions(TOTAL_RESTRICTED_USERS, locale),
                percent(100),
              ]}
            />
            <p className="info-note">
              {t('market.note', { total: millions(TOTAL_RESTRICTED_USERS, locale) })}
            </p>
          </InfoSection>

          <TierModelSection />

          <InfoSection
            id="infrastructure"
            title={t('infrastructure.title')}
            intro={t('infrastructure.intro', { percent: TARGET_SHARE_PERCENT })}
          >
            <ol className="info-flow">
              <li>
                <span className="info-flow__value">{millions(TOTAL_RESTRICTED_USERS, locale)}</span>
                <span className="info-flow__label">{t('infrastructure.users')}</span>
              </li>
              <li>
                <span className="info-flow__value">{millions(TARGET_USERS, locale)}</span>
                <span className="info-flow__label">
                  {t('infrastructure.target', { percent: TARGET_SHARE_PERCENT })}
                </span>
              </li>
              <li>
                <span className="info-flow__value">{number(BASE_SERVERS)}</span>
                <span className="info-flow__label">{t('infrastructure.fullCapacity')}</span>
              </li>
              <li>
                <span className="info-flow__value">
                  {t('infrastructure.serverRange', {
                    min: number(Math.round(SERVERS_WITH_REDUNDANCY.min / 100) * 100),
                    max: number(Math.round(SERVERS_WITH_REDUNDANCY.max / 100) * 100),
                  })}
                </span>
                <span className="info-flow__label">{t('infrastructure.redundancy', range)}</span>
              </li>
            </ol>
            <p className="info-prose-block">
              {t('infrastructure.text', { ...range, servers: number(20_000) })}
            </p>
          </InfoSection>

          <InfoSection id="placement" title={t('placement.title')} intro={t('placement.intro')}>
            <div className="info-grid info-grid--2">
              {REGIONS.map((region) => {
                const countries = RESTRICTED_COUNTRIES.filter((entry) => entry.region === region);
                const users = countries.reduce((sum, entry) => sum + entry.estimatedUsers, 0);
                const key = REGION_KEYS[region];
                return (
                  <article key={region} className="card info-card">
                    <h3 className="info-card__title">{t(`regions.${key}.name`)}</h3>
                    <p className="info-card__meta">
                      {t('placement.meta', {
                        countries: new Intl.ListFormat(INTL_TAGS[locale], {
                          style: 'narrow',
                          type: 'unit',
                        }).format(countries.map((entry) => countryName(entry.country, locale))),
                        users: millions(users, locale),
                      })}
                    </p>
                    <p className="info-card__text">{t(`regions.${key}.advice`)}</p>
                  </article>
                );
              })}
            </div>
          </InfoSection>

          <HighlightsSection />
        </div>
      </div>
    </div>
  );
}

function Stat({ value, label }: { value: string; label: string }) {
  return (
    <div className="info-stat">
      <span className="info-stat__value">{value}</span>
      <span className="info-stat__label">{label}</span>
    </div>
  );
}

/** Revenue and adoption highlights at the target share. */
function HighlightsSection() {
  const { t, locale } = useT('our-view');
  const monthlyClientSpendSsl = TARGET_USERS * PRICING.monthlyPerServerSsl;
  // Free access is claimed only while the launch period lasts.
  const launch = launchPeriod();

  return (
    <InfoSection id="highlights" title={t('highlights.title')}>
      <div className="info-grid info-grid--2">
        <article className="card info-card">
          <h3 className="info-card__title">{t('highlights.revenue.title')}</h3>
          <ul className="check-list info-checklist">
            <li>
              {t('highlights.revenue.spend', {
                percent: TARGET_SHARE_PERCENT,
                price: PRICING.monthlyPerServerSsl,
                spend: millions(monthlyClientSpendSsl, locale),
                usd: usdOfSsl(monthlyClientSpendSsl, locale),
              })}
            </li>
            <li>
              {t('highlights.revenue.operators', {
                percent: ECONOMICS.clientPaymentsToOperatorsPercent,
              })}
            </li>
            <li>
              {t('highlights.revenue.prices', {
                price: PRICING.monthlyPerServerSsl,
                usd: usdOfSsl(PRICING.monthlyPerServerSsl, locale),
              })}
            </li>
          </ul>
        </article>
        <article className="card info-card">
          <h3 className="info-card__title">{t('highlights.adoption.title')}</h3>
          <ul className="check-list info-checklist" data-testid="our-view-adoption">
            <li>{t('highlights.adoption.install')}</li>
            <li>{t('highlights.adoption.apps')}</li>
            {launch.active ? (
              <li data-testid="our-view-launch-period">
                {t('highlights.adoption.launch', {
                  date: formatDate(launch.lastDay, locale, { dateStyle: 'long', timeZone: 'UTC' }),
                })}
              </li>
            ) : null}
            <li>{t('highlights.adoption.share')}</li>
          </ul>
        </article>
      </div>
    </InfoSection>
  );
}

/** Planned capacity by tier, led by the laptop tier. */
function TierModelSection() {
  const { t, locale } = useT('our-view');
  const number = (value: number) => formatNumber(value, locale);
  const percent = (value: number) => formatNumber(value / 100, locale, { style: 'percent' });
  // "4-6", "20+" in the reader's digits.
  const cores = (text: string) => text.replace(/\d+/g, (digits) => number(Number(digits)));
  const laptopTier = TIER_PLAN[0];

  return (
    <InfoSection id="tier-model" title={t('tiers.title')} intro={t('tiers.intro')}>
      <DataTable
        caption={t('tiers.caption')}
        captionHidden
        head={[
          t('tiers.head.tier'),
          t('tiers.head.cores'),
          t('tiers.head.usersPerServer'),
          t('tiers.head.share'),
          t('tiers.head.users'),
          t('tiers.head.servers'),
        ]}
        numeric={[2, 3, 4, 5]}
        hideOnNarrow={[1]}
        rows={TIER_PLAN.map((tier, index) => [
          t(`tiers.labels.${TIER_KEYS[index] ?? 'dedicated'}`),
          <bdi key="cores">{cores(tier.cores)}</bdi>,
          number(tier.usersPerServer),
          percent(tier.userSharePercent),
          number(tier.users),
          number(tier.servers),
        ])}
        foot={[t('tiers.total'), '', '', percent(100), number(TARGET_USERS), number(BASE_SERVERS)]}
      />
      <p className="info-note">
        {laptopTier
          ? `${t('tiers.laptopNote', {
              percent: laptopTier.userSharePercent,
              users: laptopTier.usersPerServer,
              cores: cores(laptopTier.cores),
            })} `
          : null}
        {t('tiers.note')}
      </p>
    </InfoSection>
  );
}
