import { ECONOMICS, PRICING, PROMOTION_CAP_SSL, PROMOTION_PLANS } from '@scn/proto';
import { Trans } from 'react-i18next';
import { EXAMPLE_MONTH, monthlyStakeIncomeSsl, nodeIncomeSsl } from '../economics-examples';
import { useEconomicsT } from '../use-econ-format';
import { DataTable } from './data-table';
import { LiveEconomy } from './live-economy';
import { ShareRewardRules } from './share-reward-rules';
import { SlashingTable } from './slashing-table';
import { SslLegalNotice } from './ssl-legal-notice';
import { StakingScheduleTable } from './staking-schedule-table';
import { VpsTierTable } from './vps-tier-table';
import '../economics.css';

const strong = { strong: <strong /> };

/** The "For Node Operators" tab of the economics page (docs/product/states.md#subscription-and-reliability-states and docs/product/constants.md#billing-and-the-economy, docs/product/constants.md#market-prices-and-limits). */
export function OperatorEconomics() {
  const { t, f } = useEconomicsT();
  const fee = ECONOMICS.withdrawalProtocolFeePercent;
  return (
    <div className="econ-panel">
      <div className="econ-callout" role="note" data-testid="econ-operator-terms">
        <Trans
          ns="economics"
          i18nKey="operator.terms"
          values={{
            days: PRICING.operatorRewardFrozenDays,
            fee: f.pct(fee),
            amount: f.ssl(100),
            net: f.ssl(100 - fee),
          }}
          components={strong}
        />
      </div>

      <LiveEconomy />

      <section className="econ-block" aria-labelledby="econ-op-income">
        <h2 id="econ-op-income">{t('operator.income.title')}</h2>
        <p className="econ-block__lead">
          {t('operator.income.lead', { ssl: f.ssl(PRICING.operatorRewardSsl) })}
        </p>
        <div className="econ-formula" aria-label={t('operator.income.formulaLabel')}>
          <span className="econ-formula__term">{t('operator.income.formula.income')}</span>
          <span className="econ-formula__op">=</span>
          <span className="econ-formula__term">{t('operator.income.formula.base')}</span>
          <span className="econ-formula__op">+</span>
          <span className="econ-formula__term">
            {t('operator.income.formula.clients', { per: f.num(PRICING.operatorRewardSsl) })}
          </span>
          <span className="econ-formula__op">+</span>
          <span className="econ-formula__term">{t('operator.income.formula.ad')}</span>
        </div>
        <ul className="econ-list">
          <li>
            <Trans ns="economics" i18nKey="operator.income.base" components={strong} />
          </li>
          <li>
            <Trans
              ns="economics"
              i18nKey="operator.income.clients"
              values={{
                ssl: f.ssl(PRICING.operatorRewardSsl),
                percent: f.pct(ECONOMICS.clientPaymentsToOperatorsPercent),
              }}
              components={strong}
            />
          </li>
          <li data-testid="econ-ad-bonus">
            <Trans
              ns="economics"
              i18nKey="operator.income.ad"
              values={{ days: PRICING.operatorRewardFrozenDays }}
              components={strong}
            />
          </li>
        </ul>
        <ShareRewardRules />
      </section>

      <section className="econ-block" aria-labelledby="econ-op-tiers">
        <h2 id="econ-op-tiers">{t('operator.tiers.title')}</h2>
        <p className="econ-block__lead">
          {t('operator.tiers.lead', {
            reliability: f.pct(100),
            ssl: f.ssl(PRICING.operatorRewardSsl),
          })}
        </p>
        <VpsTierTable />
        <p className="econ-block__lead">
          {t('operator.tiers.bandwidth', { perClient: f.num(1), minimum: f.num(100) })}
        </p>
      </section>

      <ExampleMonthBlock />

      <ReliabilityBlock />

      <section className="econ-block" aria-labelledby="econ-op-staking">
        <h2 id="econ-op-staking">{t('staking.title')}</h2>
        <p className="econ-block__lead">
          {t('staking.lead', { apy: f.pct(ECONOMICS.stakingApyPercent), months: f.num(12) })}
        </p>
        <StakingScheduleTable />
        <p className="econ-fineprint">
          {t('staking.fineprint', {
            years: ECONOMICS.hardwareAgeYears,
            cut: f.pct(ECONOMICS.hardwareAgeCutPercent),
            months: ECONOMICS.rewardCycleMonths,
          })}
        </p>
      </section>

      <DistributionBlock />

      <HardwareBlock />

      <SslLegalNotice />
    </div>
  );
}

function RequirementCard({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <article className="card econ-card">
      <h3>{title}</h3>
      <ul className="econ-list">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </article>
  );
}

/** Reliability, slashing and what it costs a node. */
function ReliabilityBlock() {
  const { t, f } = useEconomicsT();
  return (
    <section className="econ-block" aria-labelledby="econ-op-reliability">
      <h2 id="econ-op-reliability">{t('reliability.title')}</h2>
      <p className="econ-block__lead">
        {t('reliability.lead', {
          lost: f.pct(1),
          cost: f.pct(2),
          half: f.pct(50),
          full: f.pct(100),
        })}
      </p>
      <div className="econ-formula" aria-label={t('reliability.formula.slashLabel')}>
        <span className="econ-formula__term">{t('reliability.formula.slash')}</span>
        <span className="econ-formula__op">=</span>
        <span className="econ-formula__term">
          {t('reliability.formula.slashExpr', {
            two: f.num(2),
            one: f.num(1),
            hundred: f.num(100),
          })}
        </span>
      </div>
      <div className="econ-formula" aria-label={t('reliability.formula.finalLabel')}>
        <span className="econ-formula__term">{t('reliability.formula.final')}</span>
        <span className="econ-formula__op">=</span>
        <span className="econ-formula__term">
          {t('reliability.formula.finalExpr', { one: f.num(1), hundred: f.num(100) })}
        </span>
      </div>
      <SlashingTable />
      <div className="econ-grid econ-grid--2">
        <article className="card econ-card">
          <h3>{t('reliability.scoring.title')}</h3>
          <ul className="econ-list">
            <li>{t('reliability.scoring.fresh', { points: f.num(2), max: f.num(100) })}</li>
            <li>{t('reliability.scoring.stale', { hours: 1 })}</li>
            <li>
              {t('reliability.scoring.hours', {
                from: f.num(1),
                to: f.num(24),
                per: f.num(5),
                max: f.num(20),
              })}
            </li>
            <li>
              {t('reliability.scoring.days', {
                from: f.num(24),
                to: f.num(96),
                per: f.num(10),
                plus: f.num(20),
              })}
            </li>
            <li>{t('reliability.scoring.gone', { hours: f.num(96), zero: f.num(0) })}</li>
            <li>
              {t('reliability.scoring.available', {
                percent: f.pct(ECONOMICS.availableAtReliability),
              })}
            </li>
          </ul>
        </article>
        <article className="card econ-card">
          <h3>{t('reliability.lifecycle.title')}</h3>
          <ol className="econ-steps">
            <li>{t('reliability.lifecycle.full', { percent: f.pct(100) })}</li>
            <li>{t('reliability.lifecycle.reduced', { percent: f.pct(100) })}</li>
            <li>
              {t('reliability.lifecycle.hidden', {
                percent: f.pct(ECONOMICS.hideBelowReliabilityPercent),
              })}
            </li>
            <li>{t('reliability.lifecycle.recover', { days: ECONOMICS.recoveryDays })}</li>
            <li>{t('reliability.lifecycle.banned')}</li>
          </ol>
        </article>
      </div>
    </section>
  );
}

/** An example month of a node's income, with the staking it could add. */
function ExampleMonthBlock() {
  const { t, f } = useEconomicsT();
  const subscriptions = EXAMPLE_MONTH.clients * PRICING.operatorRewardSsl;
  const total = nodeIncomeSsl(
    EXAMPLE_MONTH.baseRewardSsl,
    EXAMPLE_MONTH.clients,
    EXAMPLE_MONTH.adBonusSsl,
  );
  const stake = (total * EXAMPLE_MONTH.stakeSharePercent) / 100;
  const stakeIncome = monthlyStakeIncomeSsl(stake);

  return (
    <section className="econ-block" aria-labelledby="econ-op-example">
      <h2 id="econ-op-example">{t('example.title')}</h2>
      <p className="econ-block__lead">
        {t('example.lead', {
          base: f.ssl(EXAMPLE_MONTH.baseRewardSsl),
          clients: EXAMPLE_MONTH.clients,
          per: f.ssl(PRICING.operatorRewardSsl),
        })}
      </p>
      <DataTable
        caption={t('example.caption')}
        captionHidden
        head={[t('example.head.source'), 'SSL', t('example.head.usd')]}
        numeric={[1, 2]}
        rows={[
          [
            t('example.base'),
            f.num(EXAMPLE_MONTH.baseRewardSsl),
            f.usdOfSsl(EXAMPLE_MONTH.baseRewardSsl),
          ],
          [
            t('example.subscriptions', {
              clients: f.num(EXAMPLE_MONTH.clients),
              per: f.num(PRICING.operatorRewardSsl),
            }),
            f.num(subscriptions),
            f.usdOfSsl(subscriptions),
          ],
          [t('example.ad'), f.num(EXAMPLE_MONTH.adBonusSsl), f.usdOfSsl(EXAMPLE_MONTH.adBonusSsl)],
        ]}
        foot={[t('example.total'), f.num(total), f.usdOfSsl(total)]}
      />
      <p className="econ-fineprint">
        {t('example.fineprint', {
          share: f.pct(EXAMPLE_MONTH.stakeSharePercent),
          stake: f.ssl(stake),
          apy: f.pct(ECONOMICS.stakingApyPercent),
          income: f.ssl(stakeIncome, 1),
          rate: f.rate(),
        })}
      </p>
    </section>
  );
}

/** Where credits go, the fees and withdrawals (docs/product/constants.md#billing-and-the-economy). */
function DistributionBlock() {
  const { t, f } = useEconomicsT();
  const fee = ECONOMICS.withdrawalProtocolFeePercent;
  return (
    <section className="econ-block" aria-labelledby="econ-op-distribution">
      <h2 id="econ-op-distribution">{t('distribution.title')}</h2>
      <div className="econ-stats">
        <div className="econ-stat">
          <span className="econ-stat__value">
            {f.pct(ECONOMICS.clientPaymentsToOperatorsPercent)}
          </span>
          <span className="econ-stat__label">{t('distribution.toOperators')}</span>
        </div>
        <div className="econ-stat" data-testid="econ-withdrawal-fee">
          <span className="econ-stat__value">{f.pct(fee)}</span>
          <span className="econ-stat__label">{t('distribution.fee')}</span>
        </div>
        <div className="econ-stat">
          <span className="econ-stat__value">{f.pct(ECONOMICS.promotionBurnPercent)}</span>
          <span className="econ-stat__label">{t('distribution.burn')}</span>
        </div>
        <div className="econ-stat" data-testid="econ-frozen-days">
          <span className="econ-stat__value">
            {t('distribution.frozenValue', { days: PRICING.operatorRewardFrozenDays })}
          </span>
          <span className="econ-stat__label">{t('distribution.frozen')}</span>
        </div>
      </div>
      <ul className="econ-list">
        <li>{t('distribution.pool', { percent: f.pct(ECONOMICS.operatorRewardPoolPercent) })}</li>
        <li>{t('distribution.withdrawals', { fee: f.pct(fee) })}</li>
        <li>
          {t('distribution.promotions', {
            plans: f.list(
              PROMOTION_PLANS.map((plan) =>
                t('distribution.plan', {
                  name: t(`distribution.planName.${plan.id}`),
                  days: plan.days,
                  cost: f.ssl(plan.costSsl),
                }),
              ),
            ),
            cap: f.ssl(PROMOTION_CAP_SSL),
          })}
        </li>
        <li>{t('distribution.later')}</li>
      </ul>
    </section>
  );
}

/** docs/product/constants.md#billing-and-the-economy: hardware and network guidance for operators (prose values, not used in rules). */
function HardwareBlock() {
  const { t, f } = useEconomicsT();
  return (
    <section className="econ-block" aria-labelledby="econ-op-hardware">
      <h2 id="econ-op-hardware">{t('hardware.title')}</h2>
      <div className="econ-grid econ-grid--4">
        <RequirementCard
          title={t('hardware.recommended.title')}
          items={[
            t('hardware.recommended.cpu', { cores: f.num(8), ghz: f.num(3, 1) }),
            t('hardware.recommended.ram', { gb: f.num(16) }),
            t('hardware.recommended.ssd', { gb: f.num(500) }),
          ]}
        />
        <RequirementCard
          title={t('hardware.minimumNetwork.title')}
          items={[
            t('hardware.network.speed', { mbps: f.num(100) }),
            t('hardware.network.latency', { ms: f.num(50) }),
            t('hardware.network.data'),
          ]}
        />
        <RequirementCard
          title={t('hardware.recommendedNetwork.title')}
          items={[
            t('hardware.network.speedPlus', { mbps: f.num(400) }),
            t('hardware.network.latency', { ms: f.num(30) }),
            t('hardware.network.data'),
          ]}
        />
        <RequirementCard
          title={t('hardware.notNeeded.title')}
          items={[
            t('hardware.notNeeded.staticIp'),
            t('hardware.notNeeded.portForwarding'),
            t('hardware.notNeeded.router'),
          ]}
        />
      </div>
    </section>
  );
}
