import { PRICING } from '@scn/proto';
import { DataTable } from '../../features/economics/components/data-table';
import {
  formatMillions,
  formatNumber,
  formatUsdOfSsl,
} from '../../features/economics/economics-format';
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

const TOC = [
  { id: 'market', label: 'Restricted markets' },
  { id: 'tier-model', label: 'Laptop & server tiers' },
  { id: 'infrastructure', label: 'Infrastructure' },
  { id: 'placement', label: 'Geographic placement' },
  { id: 'highlights', label: 'Revenue & adoption' },
] as const;

/** Where to place servers for each region: close enough for low latency, outside the filter. */
const REGION_ADVICE: Record<MarketRegion, string> = {
  'East Asia':
    'Place servers in Japan, South Korea, Taiwan and Singapore for round trips well under 50 ms. Use REALITY with a widely used foreign site as the handshake target; plain TLS endpoints on well-known cloud ranges are probed and blocked fastest here.',
  'Middle East & North Africa':
    'Central and Southern Europe (Germany, the Netherlands, Italy) and the Caucasus give good latency. Filtering tightens around unrest and elections, so keep spare capacity and spread clients over several servers.',
  'Eastern Europe & Central Asia':
    'Finland, the Baltic states, Poland and Germany serve Russia and Belarus well; Central Asia is best reached from Turkey and Eastern Europe. Residential connections avoid the data-centre ranges that some networks block wholesale.',
  'South & Southeast Asia':
    'Singapore, Malaysia and Japan are the low-latency hubs. Mobile networks dominate, so servers with stable high ports and generous bandwidth matter more than raw core count.',
  'Sub-Saharan Africa':
    'Southern Europe and the Gulf carry most international routes. Shutdowns are often regional and short, so wide geographic spread beats concentration.',
  'Latin America & Caribbean':
    'The south-eastern United States (Miami in particular), Mexico and Colombia offer the shortest paths. International bandwidth is scarce in Cuba, so latency and stability matter more than throughput.',
};

const REGIONS = Array.from(new Set(RESTRICTED_COUNTRIES.map((entry) => entry.region)));

/** /our-view (spec 02 §2, §9): market analysis behind the network. */
export function OurViewRoute() {
  useDocumentTitle('Our View');
  return (
    <div className="info-page page container">
      <InfoPageHeader
        eyebrow="Market analysis"
        title="Our View"
        lead="Hundreds of millions of people live behind national firewalls. Centralised VPN brands are easy to block; a network of independent operators is not. This is the opportunity as we see it."
      />

      <div className="info-stats" aria-label="Key figures">
        <Stat
          value={`~${formatMillions(TOTAL_RESTRICTED_USERS)}`}
          label="users in restricted countries"
        />
        <Stat value={formatNumber(RESTRICTED_COUNTRIES.length)} label="countries analysed" />
        <Stat
          value={formatMillions(TARGET_USERS)}
          label={`users at a ${TARGET_SHARE_PERCENT}% target`}
        />
        <Stat value="~20,000" label="servers to serve them" />
      </div>

      <div className="info-layout">
        <aside className="info-layout__aside">
          <TableOfContents items={TOC} />
        </aside>
        <div className="info-layout__main">
          <InfoSection
            id="market"
            title="Restricted markets"
            intro="Estimated number of people in each country who need circumvention tools to reach the open internet."
          >
            <DataTable
              caption="Estimated users in restricted countries"
              captionHidden
              head={['Country', 'Region', 'Estimated users', 'Share']}
              numeric={[2, 3]}
              hideOnNarrow={[1]}
              rows={RESTRICTED_COUNTRIES.map((entry) => [
                entry.country,
                entry.region,
                formatMillions(entry.estimatedUsers),
                `${formatNumber((entry.estimatedUsers / TOTAL_RESTRICTED_USERS) * 100, 1)}%`,
              ])}
              foot={[
                'Total',
                `${RESTRICTED_COUNTRIES.length} countries`,
                formatMillions(TOTAL_RESTRICTED_USERS),
                '100%',
              ]}
            />
            <p className="info-note">
              Figures are our rounded estimates, not measurements. Usage changes quickly with new
              blocks, shutdowns and elections; the total of about{' '}
              {formatMillions(TOTAL_RESTRICTED_USERS)} is the planning baseline for the rest of this
              page.
            </p>
          </InfoSection>

          <TierModelSection />

          <InfoSection
            id="infrastructure"
            title="Infrastructure"
            intro={`What it takes to serve ${TARGET_SHARE_PERCENT}% of the market.`}
          >
            <ol className="info-flow">
              <li>
                <span className="info-flow__value">{formatMillions(TOTAL_RESTRICTED_USERS)}</span>
                <span className="info-flow__label">users in restricted countries</span>
              </li>
              <li>
                <span className="info-flow__value">{formatMillions(TARGET_USERS)}</span>
                <span className="info-flow__label">{TARGET_SHARE_PERCENT}% target</span>
              </li>
              <li>
                <span className="info-flow__value">{formatNumber(BASE_SERVERS)}</span>
                <span className="info-flow__label">servers at full capacity</span>
              </li>
              <li>
                <span className="info-flow__value">
                  {formatNumber(Math.round(SERVERS_WITH_REDUNDANCY.min / 100) * 100)}-
                  {formatNumber(Math.round(SERVERS_WITH_REDUNDANCY.max / 100) * 100)}
                </span>
                <span className="info-flow__label">
                  with {REDUNDANCY_PERCENT.min}-{REDUNDANCY_PERCENT.max}% redundancy
                </span>
              </li>
            </ol>
            <p className="info-prose-block">
              Servers are never run at their full client allowance: blocks, outages and peaks
              happen. With {REDUNDANCY_PERCENT.min}-{REDUNDANCY_PERCENT.max}% spare capacity the
              network needs about 20,000 servers, a number that independent operators can reach far
              faster than any single company could build and defend data centres.
            </p>
          </InfoSection>

          <InfoSection
            id="placement"
            title="Geographic placement"
            intro="Where operators should place servers for each region: close enough for low latency, outside the filter."
          >
            <div className="info-grid info-grid--2">
              {REGIONS.map((region) => {
                const countries = RESTRICTED_COUNTRIES.filter((entry) => entry.region === region);
                const users = countries.reduce((sum, entry) => sum + entry.estimatedUsers, 0);
                return (
                  <article key={region} className="card info-card">
                    <h3 className="info-card__title">{region}</h3>
                    <p className="info-card__meta">
                      {countries.map((entry) => entry.country).join(', ')} · ~
                      {formatMillions(users)} users
                    </p>
                    <p className="info-card__text">{REGION_ADVICE[region]}</p>
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
  const monthlyClientSpendSsl = TARGET_USERS * PRICING.monthlyPerServerSsl;

  return (
    <InfoSection id="highlights" title="Revenue and adoption highlights">
      <div className="info-grid info-grid--2">
        <article className="card info-card">
          <h3 className="info-card__title">Revenue</h3>
          <ul className="check-list info-checklist">
            <li>
              At the {TARGET_SHARE_PERCENT}% target, one server each at{' '}
              {PRICING.monthlyPerServerSsl} SSL a month means{' '}
              {formatMillions(monthlyClientSpendSsl)} SSL ({formatUsdOfSsl(monthlyClientSpendSsl)})
              of client spend every month.
            </li>
            <li>100% of client payments go to node operators, on top of their base rewards.</li>
            <li>
              Prices stay low for the people who need access most: {PRICING.monthlyPerServerSsl} SSL
              is {formatUsdOfSsl(PRICING.monthlyPerServerSsl)} a month per server.
            </li>
          </ul>
        </article>
        <article className="card info-card">
          <h3 className="info-card__title">Adoption</h3>
          <ul className="check-list info-checklist">
            <li>
              A node installs with one command in about 5 minutes and appears within 2-3 minutes.
            </li>
            <li>Clients use the VLESS apps they already know; a QR code is all it takes.</li>
            <li>Access is complimentary during the launch period, through December 31, 2025.</li>
            <li>Share-and-earn rewards turn users into the network's own marketing.</li>
          </ul>
        </article>
      </div>
    </InfoSection>
  );
}

/** Planned capacity by tier, led by the laptop tier. */
function TierModelSection() {
  const laptopTier = TIER_PLAN[0];

  return (
    <InfoSection
      id="tier-model"
      title="Laptop and server tier model"
      intro="Most of the network can run on hardware people already own. Capacity is planned over four tiers by CPU cores."
    >
      <DataTable
        caption="Planned capacity by tier"
        captionHidden
        head={[
          'Tier',
          'Cores',
          'Users per server',
          'Share of users',
          'Users served',
          'Servers needed',
        ]}
        numeric={[2, 3, 4, 5]}
        hideOnNarrow={[1]}
        rows={TIER_PLAN.map((tier) => [
          tier.label,
          tier.cores,
          formatNumber(tier.usersPerServer),
          `${tier.userSharePercent}%`,
          formatNumber(tier.users),
          formatNumber(tier.servers),
        ])}
        foot={['Total', '', '', '100%', formatNumber(TARGET_USERS), formatNumber(BASE_SERVERS)]}
      />
      <p className="info-note">
        {laptopTier
          ? `The laptop tier carries ${laptopTier.userSharePercent}% of users at ${laptopTier.usersPerServer} users per machine: a modern ${laptopTier.cores}-core laptop on a home connection is enough, with no static IP, port forwarding or router changes. `
          : null}
        Larger machines take the rest, so a few well-connected servers anchor each region while many
        small ones make it impossible to block.
      </p>
    </InfoSection>
  );
}
