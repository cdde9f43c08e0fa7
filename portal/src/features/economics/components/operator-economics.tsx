import {
  ECONOMICS,
  PRICING,
  PROMOTION_CAP_SSL,
  PROMOTION_PLANS,
  SSL_USD_PRICE_TEXT,
} from '@scn/proto';
import { formatNumber, formatSsl, formatUsdOfSsl } from '../economics-format';
import {
  EXAMPLE_MONTH,
  monthlyStakeIncomeSsl,
  nodeIncomeSsl,
  OPERATOR_REQUIREMENTS,
} from '../economics-examples';
import { DataTable } from './data-table';
import { LiveEconomy } from './live-economy';
import { SlashingTable } from './slashing-table';
import { SslLegalNotice } from './ssl-legal-notice';
import { StakingScheduleTable } from './staking-schedule-table';
import { VpsTierTable } from './vps-tier-table';
import '../economics.css';

/** The "For Node Operators" tab of the economics page (spec 02 §4 and §9, spec 01 §9). */
export function OperatorEconomics() {
  return (
    <div className="econ-panel">
      <LiveEconomy />
      <section className="econ-block" aria-labelledby="econ-op-income">
        <h2 id="econ-op-income">How a node earns</h2>
        <p className="econ-block__lead">
          A node earns a base reward for the capacity it offers,{' '}
          {formatSsl(PRICING.operatorRewardSsl)} for every client subscribed to it, and a bonus for
          promoting the network.
        </p>
        <div className="econ-formula" aria-label="Node income formula">
          <span className="econ-formula__term">Node income</span>
          <span className="econ-formula__op">=</span>
          <span className="econ-formula__term">base reward</span>
          <span className="econ-formula__op">+</span>
          <span className="econ-formula__term">clients × {PRICING.operatorRewardSsl}</span>
          <span className="econ-formula__op">+</span>
          <span className="econ-formula__term">ad bonus</span>
        </div>
        <ul className="econ-list">
          <li>
            <strong>Base reward</strong> depends on the hardware tier (tables below).
          </li>
          <li>
            <strong>Client income:</strong> {formatSsl(PRICING.operatorRewardSsl)} per subscribed
            client per month. 100% of client payments go to node operators.
          </li>
          <li>
            <strong>Ad bonus:</strong> {formatSsl(ECONOMICS.adRewardSsl.min, 1)} to{' '}
            {formatSsl(ECONOMICS.adRewardSsl.max, 1)} per qualified post or placement, depending on
            region, at peak hours (7-10 pm daily).
          </li>
        </ul>
      </section>

      <section className="econ-block" aria-labelledby="econ-op-tiers">
        <h2 id="econ-op-tiers">Hardware tiers</h2>
        <p className="econ-block__lead">
          The setup wizard offers four VPS sizes. Larger machines accept more clients and earn more:
          a full node at 100% reliability earns its base reward plus{' '}
          {formatSsl(PRICING.operatorRewardSsl)} for each of its clients, the monthly earnings
          below.
        </p>
        <VpsTierTable />
        <p className="econ-block__lead">
          Every node must sustain 1 Mbps for each client it accepts, and never less than 100 Mbps
          each way.
        </p>
      </section>

      <ExampleMonthBlock />

      <ReliabilityBlock />

      <section className="econ-block" aria-labelledby="econ-op-staking">
        <h2 id="econ-op-staking">Staking and halving protection</h2>
        <p className="econ-block__lead">
          Staked SSL earns {ECONOMICS.stakingApyPercent}% APY (monthly income = stake ×{' '}
          {ECONOMICS.stakingApyPercent}% / 12). Staking a growing share of your monthly earnings
          also protects a node against the hardware-age halving, and stakers get priority when
          clients are assigned to nodes at capacity.
        </p>
        <StakingScheduleTable />
        <p className="econ-fineprint">
          After {ECONOMICS.hardwareAgeYears} years without a hardware upgrade, rewards and allowed
          clients are cut by {ECONOMICS.hardwareAgeCutPercent}% unless the staking requirements
          above were met. Rewards are reviewed over a {ECONOMICS.rewardCycleMonths}-month adjustment
          cycle.
        </p>
      </section>

      <section className="econ-block" aria-labelledby="econ-op-distribution">
        <h2 id="econ-op-distribution">Distribution, fees and withdrawals</h2>
        <div className="econ-stats">
          <div className="econ-stat">
            <span className="econ-stat__value">{ECONOMICS.clientPaymentsToOperatorsPercent}%</span>
            <span className="econ-stat__label">of client payments go to operators</span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{ECONOMICS.withdrawalProtocolFeePercent}%</span>
            <span className="econ-stat__label">protocol contribution on withdrawal</span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{ECONOMICS.promotionBurnPercent}%</span>
            <span className="econ-stat__label">of promotion fees are burned</span>
          </div>
          <div className="econ-stat">
            <span className="econ-stat__value">{PRICING.operatorRewardFrozenDays} days</span>
            <span className="econ-stat__label">rewards stay frozen before withdrawal</span>
          </div>
        </div>
        <ul className="econ-list">
          <li>
            {ECONOMICS.operatorRewardPoolPercent}% of the network's credits form the reward pool for
            node operators.
          </li>
          <li>
            Withdrawals go to an external Solana address of your choice; the{' '}
            {ECONOMICS.withdrawalProtocolFeePercent}% protocol contribution is taken at that point.
          </li>
          <li>
            Operators can promote their servers in the market:{' '}
            {PROMOTION_PLANS.map(
              (plan) => `${plan.name} ${plan.days} days for ${formatNumber(plan.costSsl)} SSL`,
            ).join(', ')}
            , up to {formatNumber(PROMOTION_CAP_SSL)} SSL in total.
          </li>
          <li>Coming later: extra pause days, token burns and seasonal competitions.</li>
        </ul>
      </section>

      <section className="econ-block" aria-labelledby="econ-op-hardware">
        <h2 id="econ-op-hardware">Recommended hardware and network</h2>
        <div className="econ-grid econ-grid--4">
          <RequirementCard
            title="Recommended hardware"
            items={OPERATOR_REQUIREMENTS.recommendedHardware}
          />
          <RequirementCard title="Minimum network" items={OPERATOR_REQUIREMENTS.minimumNetwork} />
          <RequirementCard
            title="Recommended network"
            items={OPERATOR_REQUIREMENTS.recommendedNetwork}
          />
          <RequirementCard title="Not needed" items={OPERATOR_REQUIREMENTS.notNeeded} />
        </div>
      </section>

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
  return (
    <section className="econ-block" aria-labelledby="econ-op-reliability">
      <h2 id="econ-op-reliability">Reliability and slashing</h2>
      <p className="econ-block__lead">
        Clients depend on your server being up. Rewards are slashed as reliability falls: every 1%
        of reliability lost costs 2% of rewards, so 50% reliability means a 100% slash.
      </p>
      <div className="econ-formula" aria-label="Slashing formula">
        <span className="econ-formula__term">slash %</span>
        <span className="econ-formula__op">=</span>
        <span className="econ-formula__term">2 × (1 − reliability) × 100</span>
      </div>
      <div className="econ-formula" aria-label="Final reward formula">
        <span className="econ-formula__term">final reward</span>
        <span className="econ-formula__op">=</span>
        <span className="econ-formula__term">base × (1 − slash / 100)</span>
      </div>
      <SlashingTable />
      <div className="econ-grid econ-grid--2">
        <article className="card econ-card">
          <h3>How reliability is scored</h3>
          <ul className="econ-list">
            <li>
              Each check that finds your server reachable with a fresh health report adds 2 points,
              up to 100.
            </li>
            <li>A health report older than 1 hour makes the server unavailable.</li>
            <li>1 to 24 hours stale: minus 5 per full hour, at most 20.</li>
            <li>24 to 96 hours stale: minus (hours over 24) × 10 + 20.</li>
            <li>More than 96 hours stale: reliability drops to 0.</li>
            <li>A server counts as available at {ECONOMICS.availableAtReliability}% or more.</li>
          </ul>
        </article>
        <article className="card econ-card">
          <h3>Lifecycle of a struggling node</h3>
          <ol className="econ-steps">
            <li>At 100%: no slashing.</li>
            <li>Below 100%: rewards drop by the slashing formula.</li>
            <li>
              Below {ECONOMICS.hideBelowReliabilityPercent}%: the server is hidden from the network
              and its rewards are frozen.
            </li>
            <li>You have {ECONOMICS.recoveryDays} days to recover reliability.</li>
            <li>Not recovered in time: the node is banned and frozen rewards are cancelled.</li>
          </ol>
        </article>
      </div>
    </section>
  );
}

/** An example month of a node's income, with the staking it could add. */
function ExampleMonthBlock() {
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
      <h2 id="econ-op-example">An example month</h2>
      <p className="econ-block__lead">
        A node with a base reward of {formatSsl(EXAMPLE_MONTH.baseRewardSsl)} serving{' '}
        {EXAMPLE_MONTH.clients} clients at {formatSsl(PRICING.operatorRewardSsl)} each:
      </p>
      <DataTable
        caption="Example monthly income"
        captionHidden
        head={['Source', 'SSL', 'USD']}
        numeric={[1, 2]}
        rows={[
          [
            'Base reward',
            formatNumber(EXAMPLE_MONTH.baseRewardSsl),
            formatUsdOfSsl(EXAMPLE_MONTH.baseRewardSsl),
          ],
          [
            `Subscriptions (${EXAMPLE_MONTH.clients} × ${PRICING.operatorRewardSsl})`,
            formatNumber(subscriptions),
            formatUsdOfSsl(subscriptions),
          ],
          [
            'Ad bonus',
            formatNumber(EXAMPLE_MONTH.adBonusSsl),
            formatUsdOfSsl(EXAMPLE_MONTH.adBonusSsl),
          ],
        ]}
        foot={['Total', formatNumber(total), formatUsdOfSsl(total)]}
      />
      <p className="econ-fineprint">
        Staking {EXAMPLE_MONTH.stakeSharePercent}% of that month ({formatSsl(stake)}) at{' '}
        {ECONOMICS.stakingApyPercent}% APY adds about {formatSsl(stakeIncome, 1)} per month. USD
        values use the {SSL_USD_PRICE_TEXT} service rate.
      </p>
    </section>
  );
}
