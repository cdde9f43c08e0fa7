import {
  DEFAULT_SSL_PER_SOL,
  ECONOMICS,
  PRICING,
  SHARE_DAILY_CAP_MICRO,
  SHARE_REWARD,
  SSL_USD_PRICE,
  VPS_TIERS,
  tierMonthlyIncome,
} from '@scn/proto';
import type { ReactElement } from 'react';
import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { SUPPORT_EMAIL } from '../../config/env';
import { paths } from '../../config/paths';
import { Accordion, type AccordionItem } from '../../features/info/components/accordion';
import { InfoPageHeader } from '../../features/info/components/info-page-header';
import { SECURITY_EMAIL } from '../../features/info/security-email';
import { useDocumentTitle } from '../../features/info/use-document-title';
import { formatDate, formatNumber } from '../../lib/i18n/format';
import { useT } from '../../lib/i18n/i18n';
import type { Locale } from '../../lib/i18n/locale';
import { launchPeriod } from '../../lib/launch-period';
import { microSslToNumber, roundToMicroSsl } from '../../lib/money';
import { ANDROID_RELEASES, launchEndText } from './help-pages';
import type faqCatalogue from '../../locales/faq/en.json';
import './faqs.css';

type FaqKey = keyof (typeof faqCatalogue)['items'];

/**
 * Share-and-earn's prime time, in the user's own time zone, as the control plane pays it
 * (control-plane/src/social/share-rules.ts: weekdays 12:00-13:30 and 20:00-21:30, Saturday and
 * Sunday 10:00-16:00 and 19:00-22:00), as [start, end) pairs of "hh:mm".
 */
const PRIME_TIME = {
  weekday: [
    ['12:00', '13:30'],
    ['20:00', '21:30'],
  ],
  weekend: [
    ['10:00', '16:00'],
    ['19:00', '22:00'],
  ],
} as const;

interface FaqCategory {
  /** The anchor (#general ...), unchanged in every language. */
  id: string;
  key: 'general' | 'nodeOperators' | 'clients' | 'technical' | 'support';
  items: readonly FaqKey[];
}

/** docs/product/screens.md#dashboards-and-information-pages: questions grouped by General, Node Operators, Clients, Technical, Support. */
const CATEGORIES: readonly FaqCategory[] = [
  {
    id: 'general',
    key: 'general',
    items: ['whatIsScn', 'whatIsSsl', 'accountTypes', 'freeLaunch', 'logs'],
  },
  {
    id: 'node-operators',
    key: 'nodeOperators',
    items: [
      'operatorRequirements',
      'operatorEarnings',
      'operatorSetupTime',
      'operatorReliability',
      'operatorWithdraw',
      'operatorHardwareAge',
    ],
  },
  {
    id: 'clients',
    key: 'clients',
    items: [
      'clientConnect',
      'clientBilling',
      'clientPause',
      'clientChangeType',
      'clientFunds',
      'clientShare',
      'clientApps',
    ],
  },
  {
    id: 'technical',
    key: 'technical',
    items: ['techProtocol', 'techDpi', 'techConnectionString', 'techMultiServer', 'techPorts'],
  },
  {
    id: 'support',
    key: 'support',
    items: ['supportContact', 'supportTimes', 'supportSecurity', 'supportDetails'],
  },
];

/** Answers whose message holds several <p> paragraphs (the others are one paragraph). */
const MULTI_PARAGRAPH: ReadonlySet<FaqKey> = new Set(['whatIsSsl', 'clientShare', 'clientApps']);

const SSL_USD = SSL_USD_PRICE.numerator / SSL_USD_PRICE.denominator;
/** Decimal sums of the constants without float noise (0.1 x 100 is 10, not 10.000000000000002). */

function usd(value: number, locale: Locale): string {
  return formatNumber(value, locale, {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 3,
  });
}

function time(hhmm: string, locale: Locale): string {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return formatDate(Date.UTC(2000, 0, 1, hours, minutes), locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
}

function timeRange([start, end]: readonly [string, string], locale: Locale): string {
  return `${time(start, locale)}–${time(end, locale)}`;
}

/**
 * The answer to "Is access free at the moment?": free access is claimed only while the launch
 * period lasts (`launchPeriod()`); after it, the standard prices.
 */
export function freeLaunchAnswerKey(now: Date = new Date()) {
  return launchPeriod(now).active ? 'items.freeLaunch.a' : 'items.freeLaunch.ended';
}

/** The values the answers interpolate: every figure from @scn/proto, never typed in the text. */
function answerValues(locale: Locale) {
  const first = VPS_TIERS[0]!;
  const last = VPS_TIERS[VPS_TIERS.length - 1]!;
  const firstIncome = tierMonthlyIncome(first);
  const lastIncome = tierMonthlyIncome(last);
  const shareCap = microSslToNumber(SHARE_DAILY_CAP_MICRO);
  const example = 100;
  return {
    sslUsd: usd(SSL_USD, locale),
    monthlyUsd: usd(roundToMicroSsl(PRICING.monthlyPerServerSsl * SSL_USD), locale),
    monthly: PRICING.monthlyPerServerSsl,
    monthlyDays: PRICING.monthlyValidityDays,
    hourly: PRICING.hourlyPerServerSsl,
    hourlyBlock: PRICING.hourlyBlockHours,
    hourlyBlockSsl: roundToMicroSsl(PRICING.hourlyPerServerSsl * PRICING.hourlyBlockHours),
    pausesPerDay: PRICING.hourlyPausesPerDay,
    pauseMaxHours: PRICING.hourlyPauseMaxHours,
    freePauseDays: PRICING.monthlyFreePauseDays,
    freePauseMonths: PRICING.monthlyFreePauseEveryMonths,
    solRate: DEFAULT_SSL_PER_SOL,
    date: launchEndText(launchPeriod().lastDay, locale),
    perClient: firstIncome.perClientSsl,
    firstTotal: firstIncome.totalSsl,
    firstBase: firstIncome.baseSsl,
    firstClients: firstIncome.maxClients,
    firstCores: first.vcpu,
    firstRam: first.ramGb,
    lastTotal: lastIncome.totalSsl,
    lastCores: last.vcpu,
    lastRam: last.ramGb,
    frozenDays: PRICING.operatorRewardFrozenDays,
    fee: ECONOMICS.withdrawalProtocolFeePercent,
    example,
    exampleNet: roundToMicroSsl((example * (100 - ECONOMICS.withdrawalProtocolFeePercent)) / 100),
    hideBelow: ECONOMICS.hideBelowReliabilityPercent,
    recoveryDays: ECONOMICS.recoveryDays,
    hardwareYears: ECONOMICS.hardwareAgeYears,
    hardwareCut: ECONOMICS.hardwareAgeCutPercent,
    stake1: ECONOMICS.stakingShareByYear[0],
    stake2: ECONOMICS.stakingShareByYear[1],
    stake3: ECONOMICS.stakingShareByYear[2],
    stake4: ECONOMICS.stakingShareByYear[3],
    stakingApy: ECONOMICS.stakingApyPercent,
    sharePrime: SHARE_REWARD.primeTimeSsl,
    shareNormal: SHARE_REWARD.normalSsl,
    shareCap,
    shareCapLeft: roundToMicroSsl(shareCap - SHARE_REWARD.normalSsl),
    shareCooldown: SHARE_REWARD.cooldownDays,
    sharePending: SHARE_REWARD.pendingHours,
    weekday1: timeRange(PRIME_TIME.weekday[0], locale),
    weekday2: timeRange(PRIME_TIME.weekday[1], locale),
    weekend1: timeRange(PRIME_TIME.weekend[0], locale),
    weekend2: timeRange(PRIME_TIME.weekend[1], locale),
  };
}

/** The markup the answers may use: links, emphasis, commands and addresses kept left to right. */
const COMPONENTS: Record<string, ReactElement> = {
  p: <p />,
  strong: <strong />,
  em: <em />,
  code: <code dir="ltr" />,
  economics: <Link href={paths.economics} />,
  privacy: <Link href={paths.privacyPolicy} />,
  documentation: <Link href={paths.documentation} />,
  servers: <Link href={paths.servers} />,
  security: <Link href={paths.security} />,
  support: <Link href={paths.support} />,
  supportEmail: (
    <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr">
      {SUPPORT_EMAIL}
    </a>
  ),
  securityEmail: (
    <a href={`mailto:${SECURITY_EMAIL}`} dir="ltr">
      {SECURITY_EMAIL}
    </a>
  ),
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

/** /faqs (docs/product/screens.md#dashboards-and-information-pages). */
export function FaqsRoute() {
  const { t, locale } = useT('faq');
  useDocumentTitle(t('documentTitle'));
  const values = answerValues(locale);

  const answer = (key: FaqKey) => {
    if (key === 'techConnectionString') {
      return (
        <>
          <p>{t('items.techConnectionString.a')}</p>
          <pre className="info-inline-code" dir="ltr">
            <code>{'vless://<uuid>@<host>:<port>?<parameters>#<name>'}</code>
          </pre>
          <p>{t('items.techConnectionString.after')}</p>
        </>
      );
    }
    const i18nKey = key === 'freeLaunch' ? freeLaunchAnswerKey() : (`items.${key}.a` as const);
    const text = <Trans ns="faq" i18nKey={i18nKey} values={values} components={COMPONENTS} />;
    return MULTI_PARAGRAPH.has(key) ? text : <p>{text}</p>;
  };

  const items = (keys: readonly FaqKey[]): AccordionItem[] =>
    keys.map((key) => ({ id: key, title: t(`items.${key}.q`), content: answer(key) }));

  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow={t('header.eyebrow')}
        title={t('header.title')}
        lead={t('header.lead')}
      />

      <nav className="faq-nav" aria-label={t('nav')}>
        {CATEGORIES.map((category) => (
          <a key={category.id} className="faq-nav__link" href={`#${category.id}`}>
            {t(`categories.${category.key}`)}
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
              {t(`categories.${category.key}`)}
            </h2>
            <Accordion items={items(category.items)} />
          </section>
        ))}
      </div>

      <section className="info-cta" aria-labelledby="faq-more-title">
        <div>
          <h2 id="faq-more-title">{t('more.title')}</h2>
          <p>{t('more.text')}</p>
        </div>
        <Link href={paths.support} className={buttonClass({ variant: 'primary' })}>
          {t('more.action')}
        </Link>
      </section>
    </div>
  );
}
