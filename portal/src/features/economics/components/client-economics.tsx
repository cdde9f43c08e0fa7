import {
  DEFAULT_SSL_PER_SOL,
  PRICING,
  SHARE_REWARD,
  SSL_USD_PRICE_TEXT,
  TOTAL_SSL_SUPPLY,
} from '@scn/proto';
import { formatNumber, formatSsl, formatUsdOfSsl } from '../economics-format';
import { hourlyBlockCostSsl, monthlyCostSsl } from '../economics-examples';
import { ClientCostTable } from './client-cost-table';
import { SslLegalNotice } from './ssl-legal-notice';
import '../economics.css';

const LAUNCH_END_TEXT = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
}).format(new Date(`${PRICING.launchPeriodEnds}T00:00:00Z`));

/** The "For Clients" tab of the economics page (spec 02 §9, spec 01 §9). */
export function ClientEconomics() {
  const monthly = monthlyCostSsl(1);
  const hourlyBlock = hourlyBlockCostSsl(1);

  return (
    <div className="econ-panel">
      <div className="econ-callout" role="note">
        <strong>Launch period:</strong> access is complimentary through {LAUNCH_END_TEXT}. The
        prices below are the standard rates that apply afterwards.
      </div>

      <section className="econ-block" aria-labelledby="econ-client-price">
        <h2 id="econ-client-price">The SSL credit</h2>
        <p className="econ-block__lead">
          Everything on the network is priced in SSL, an internal service credit. You add SSL to
          your wallet once and spend it on subscriptions to the servers you choose.
        </p>
        <div className="econ-stats">
          <div className="econ-stat">
            <span className="econ-stat__value">{SSL_USD_PRICE_TEXT}</span>
            <span className="econ-stat__label">service rate per SSL</span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{formatSsl(monthly)}</span>
            <span className="econ-stat__label">
              per server for {PRICING.monthlyValidityDays} days ({formatUsdOfSsl(monthly)})
            </span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{formatSsl(PRICING.hourlyPerServerSsl)}</span>
            <span className="econ-stat__label">per server per hour on hourly billing</span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{formatNumber(DEFAULT_SSL_PER_SOL)}</span>
            <span className="econ-stat__label">SSL per SOL (default deposit rate)</span>
          </div>
        </div>
        <p className="econ-fineprint">
          Deposits are made in SOL; card deposits are not available yet. When no live rate is known,
          deposits convert at {formatNumber(DEFAULT_SSL_PER_SOL)} SSL per SOL. The network holds{' '}
          {formatNumber(TOTAL_SSL_SUPPLY / 1_000_000_000)} billion SSL in total.
        </p>
      </section>

      <section className="econ-block" aria-labelledby="econ-client-billing">
        <h2 id="econ-client-billing">Two ways to pay</h2>
        <div className="econ-grid econ-grid--2">
          <article className="card econ-card">
            <h3>Monthly</h3>
            <p className="econ-card__price">
              {formatSsl(PRICING.monthlyPerServerSsl)}{' '}
              <span>per server / {PRICING.monthlyValidityDays} days</span>
            </p>
            <ul className="econ-list">
              <li>
                Cost grows linearly: each extra server adds {formatSsl(PRICING.monthlyPerServerSsl)}
                .
              </li>
              <li>
                Valid for {PRICING.monthlyValidityDays} days from purchase, whatever your usage.
              </li>
              <li>
                One free {PRICING.monthlyFreePauseDays}-day pause every{' '}
                {PRICING.monthlyFreePauseEveryMonths} months.
              </li>
            </ul>
          </article>
          <article className="card econ-card">
            <h3>Hourly</h3>
            <p className="econ-card__price">
              {formatSsl(PRICING.hourlyPerServerSsl)} <span>per server / hour</span>
            </p>
            <ul className="econ-list">
              <li>
                Paid upfront in blocks of {PRICING.hourlyBlockHours} hours per server:{' '}
                {formatSsl(hourlyBlock)} ({formatUsdOfSsl(hourlyBlock)}) each.
              </li>
              <li>Your dashboard counts down the hours left, refreshed every minute.</li>
              <li>
                Up to {PRICING.hourlyPausesPerDay} pauses a day, each up to{' '}
                {PRICING.hourlyPauseMaxHours} hours.
              </li>
            </ul>
          </article>
        </div>
      </section>

      <section className="econ-block" aria-labelledby="econ-client-rules">
        <h2 id="econ-client-rules">Changes, pauses and premium servers</h2>
        <div className="econ-grid econ-grid--3">
          <article className="card econ-card">
            <h3>Changing billing type</h3>
            <p>
              Switching a subscription between monthly and hourly costs{' '}
              {formatSsl(PRICING.monthlyPerServerSsl)} per server, paid upfront. Remaining time on
              the old plan is not refunded. If your wallet cannot cover the change, the subscription
              is paused automatically and you are shown the available and required balance.
            </p>
          </article>
          <article className="card econ-card">
            <h3>Pausing</h3>
            <p>
              Hourly subscriptions can be paused {PRICING.hourlyPausesPerDay} times a day for up to{' '}
              {PRICING.hourlyPauseMaxHours} hours each. Monthly subscriptions include one free{' '}
              {PRICING.monthlyFreePauseDays}-day pause every {PRICING.monthlyFreePauseEveryMonths}{' '}
              months. Reactivating a paused subscription needs enough balance in your wallet.
            </p>
          </article>
          <article className="card econ-card">
            <h3>Premium servers</h3>
            <p>
              Premium servers cost {formatSsl(PRICING.premiumPerServerSsl)} each, the same as any
              other server, and are added to your subscription total at that price. A subscription
              total is always the number of servers times {formatSsl(PRICING.monthlyPerServerSsl)}.
            </p>
          </article>
        </div>
      </section>

      <section className="econ-block" aria-labelledby="econ-client-examples">
        <h2 id="econ-client-examples">Worked examples</h2>
        <p className="econ-block__lead">
          Costs in SSL with their USD equivalent at {SSL_USD_PRICE_TEXT} per SSL.
        </p>
        <ClientCostTable />
        <p className="econ-fineprint">
          A {PRICING.hourlyBlockHours}-hour block costs the same as a {PRICING.monthlyValidityDays}
          -day month. Hourly billing suits short or occasional use with its daily pauses; monthly
          billing suits an always-on connection.
        </p>
      </section>

      <section className="econ-block" aria-labelledby="econ-client-flow">
        <h2 id="econ-client-flow">Where your payment goes</h2>
        <ul className="econ-list">
          <li>
            100% of what clients pay for subscriptions goes to the node operators running the
            servers.
          </li>
          <li>
            You can also earn SSL by sharing promotional posts:{' '}
            {formatSsl(SHARE_REWARD.normalSsl, 1)} normally,{' '}
            {formatSsl(SHARE_REWARD.primeTimeSsl, 1)} at prime time, once per platform every{' '}
            {SHARE_REWARD.cooldownDays} days.
          </li>
          <li>
            Wallet balances are shown with their USD equivalent so you always know what you hold.
          </li>
        </ul>
      </section>

      <SslLegalNotice />
    </div>
  );
}
