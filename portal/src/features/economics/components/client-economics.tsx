import { DEFAULT_SSL_PER_SOL, ECONOMICS, PRICING, TOTAL_SSL_SUPPLY } from '@scn/proto';
import { Trans } from 'react-i18next';
import { formatLaunchLastDay, launchPeriod } from '../../../lib/launch-period';
import { hourlyBlockCostSsl, monthlyCostSsl } from '../economics-examples';
import { useEconomicsT } from '../use-econ-format';
import { ClientCostTable } from './client-cost-table';
import { ShareRewardRules } from './share-reward-rules';
import { SslLegalNotice } from './ssl-legal-notice';
import '../economics.css';

const strong = { strong: <strong /> };

/** The "For Clients" tab of the economics page (docs/product/constants.md#billing-and-the-economy, docs/product/constants.md#market-prices-and-limits). */
export function ClientEconomics() {
  const { t, f } = useEconomicsT();
  const monthly = monthlyCostSsl(1);
  const period = launchPeriod();
  const rate = f.rate();

  return (
    <div className="econ-panel">
      {period.active ? (
        <div className="econ-callout" role="note" data-testid="econ-launch-period">
          <Trans
            ns="economics"
            i18nKey="client.launch"
            values={{ date: formatLaunchLastDay(period, f.locale) }}
            components={strong}
          />
        </div>
      ) : null}

      <section className="econ-block" aria-labelledby="econ-client-price">
        <h2 id="econ-client-price">{t('client.credit.title')}</h2>
        <p className="econ-block__lead">{t('client.credit.lead')}</p>
        <div className="econ-stats">
          <div className="econ-stat">
            <span className="econ-stat__value">{rate}</span>
            <span className="econ-stat__label">{t('client.credit.rate')}</span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{f.ssl(monthly)}</span>
            <span className="econ-stat__label">
              {t('client.credit.monthly', {
                days: PRICING.monthlyValidityDays,
                usd: f.usdOfSsl(monthly),
              })}
            </span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{f.ssl(PRICING.hourlyPerServerSsl)}</span>
            <span className="econ-stat__label">{t('client.credit.hourly')}</span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{f.num(DEFAULT_SSL_PER_SOL)}</span>
            <span className="econ-stat__label">{t('client.credit.solRate')}</span>
          </div>
        </div>
        <p className="econ-fineprint">
          {t('client.credit.fineprint', {
            rate: f.num(DEFAULT_SSL_PER_SOL),
            supply: f.words(TOTAL_SSL_SUPPLY),
          })}
        </p>
      </section>

      <BillingBlock />

      <RulesBlock />

      <section className="econ-block" aria-labelledby="econ-client-examples">
        <h2 id="econ-client-examples">{t('client.examples.title')}</h2>
        <p className="econ-block__lead">{t('client.examples.lead', { rate })}</p>
        <ClientCostTable />
        <p className="econ-fineprint">
          {t('client.examples.fineprint', {
            hours: PRICING.hourlyBlockHours,
            days: PRICING.monthlyValidityDays,
          })}
        </p>
      </section>

      <section className="econ-block" aria-labelledby="econ-client-flow">
        <h2 id="econ-client-flow">{t('client.flow.title')}</h2>
        <ul className="econ-list">
          <li>
            {t('client.flow.operators', {
              percent: f.pct(ECONOMICS.clientPaymentsToOperatorsPercent),
            })}
          </li>
          <li>{t('client.flow.usd')}</li>
        </ul>
      </section>

      <section className="econ-block" aria-labelledby="econ-client-share">
        <h2 id="econ-client-share">{t('share.title')}</h2>
        <p className="econ-block__lead">{t('share.lead')}</p>
        <ShareRewardRules />
      </section>

      <SslLegalNotice />
    </div>
  );
}

/** Monthly and hourly billing (docs/product/constants.md#billing-and-the-economy). */
function BillingBlock() {
  const { t, f } = useEconomicsT();
  const hourlyBlock = hourlyBlockCostSsl(1);
  return (
    <section className="econ-block" aria-labelledby="econ-client-billing">
      <h2 id="econ-client-billing">{t('client.billing.title')}</h2>
      <div className="econ-grid econ-grid--2">
        <article className="card econ-card">
          <h3>{t('client.billing.monthly.title')}</h3>
          <p className="econ-card__price">
            <Trans
              ns="economics"
              i18nKey="client.billing.monthly.price"
              values={{
                ssl: f.ssl(PRICING.monthlyPerServerSsl),
                days: PRICING.monthlyValidityDays,
              }}
              components={{ unit: <span /> }}
            />
          </p>
          <ul className="econ-list">
            <li>
              {t('client.billing.monthly.linear', { ssl: f.ssl(PRICING.monthlyPerServerSsl) })}
            </li>
            <li>{t('client.billing.monthly.validity', { days: PRICING.monthlyValidityDays })}</li>
            <li>
              {t('client.billing.monthly.pause', {
                days: PRICING.monthlyFreePauseDays,
                months: PRICING.monthlyFreePauseEveryMonths,
              })}
            </li>
          </ul>
        </article>
        <article className="card econ-card">
          <h3>{t('client.billing.hourly.title')}</h3>
          <p className="econ-card__price">
            <Trans
              ns="economics"
              i18nKey="client.billing.hourly.price"
              values={{ ssl: f.ssl(PRICING.hourlyPerServerSsl) }}
              components={{ unit: <span /> }}
            />
          </p>
          <ul className="econ-list">
            <li>
              {t('client.billing.hourly.block', {
                hours: PRICING.hourlyBlockHours,
                ssl: f.ssl(hourlyBlock),
                usd: f.usdOfSsl(hourlyBlock),
              })}
            </li>
            <li>{t('client.billing.hourly.countdown')}</li>
            <li>
              {t('client.billing.hourly.pauses', {
                count: PRICING.hourlyPausesPerDay,
                hours: PRICING.hourlyPauseMaxHours,
              })}
            </li>
          </ul>
        </article>
      </div>
    </section>
  );
}

/** Billing changes, pauses and premium servers (docs/product/constants.md#billing-and-the-economy). */
function RulesBlock() {
  const { t, f } = useEconomicsT();
  return (
    <section className="econ-block" aria-labelledby="econ-client-rules">
      <h2 id="econ-client-rules">{t('client.rules.title')}</h2>
      <div className="econ-grid econ-grid--3">
        <article className="card econ-card">
          <h3>{t('client.rules.change.title')}</h3>
          <p>{t('client.rules.change.text', { ssl: f.ssl(PRICING.monthlyPerServerSsl) })}</p>
        </article>
        <article className="card econ-card">
          <h3>{t('client.rules.pause.title')}</h3>
          <p>
            {t('client.rules.pause.text', {
              count: PRICING.hourlyPausesPerDay,
              hours: PRICING.hourlyPauseMaxHours,
              days: PRICING.monthlyFreePauseDays,
              months: PRICING.monthlyFreePauseEveryMonths,
            })}
          </p>
        </article>
        <article className="card econ-card">
          <h3>{t('client.rules.premium.title')}</h3>
          <p>
            {t('client.rules.premium.text', {
              premium: f.ssl(PRICING.premiumPerServerSsl),
              ssl: f.ssl(PRICING.monthlyPerServerSsl),
            })}
          </p>
        </article>
      </div>
    </section>
  );
}
