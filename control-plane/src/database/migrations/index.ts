import { Foundation1763800000000 } from './1763800000000-foundation';
import { Nodes1763900000000 } from './1763900000000-nodes';
import { ClientJourney1764000000000 } from './1764000000000-client-journey';
import { Market1764000000100 } from './1764000000100-market';
import { Subscriptions1764000000200 } from './1764000000200-subscriptions';
import { ClientSlots1764000000300 } from './1764000000300-client-slots';
import { MarketReportWrites1764000000400 } from './1764000000400-market-report-writes';
import { ClientSetVersions1764000000500 } from './1764000000500-client-set-versions';
import { PurchaseBatches1764000000600 } from './1764000000600-purchase-batches';
import { MarketTriggerPlans1764000000700 } from './1764000000700-market-trigger-plans';
import { MarketTriggerEarlyExit1764000000800 } from './1764000000800-market-trigger-early-exit';
import { MarketTriggerCheckNewRows1764000000900 } from './1764000000900-market-trigger-check-new-rows';
import { ManualServers1764000001000 } from './1764000001000-manual-servers';
import { MarketFreeServers1764000001001 } from './1764000001001-market-free-servers';
import { SlidingRateLimits1764000001100 } from './1764000001100-sliding-rate-limits';
import { SubscriptionWithdrawals1764000001200 } from './1764000001200-subscription-withdrawals';
import { JobHeartbeats1764000001201 } from './1764000001201-job-heartbeats';
import { CanonicalServerHosts1764000001300 } from './1764000001300-canonical-server-hosts';
import { SqlFunctionSources1764000001800 } from './1764000001800-sql-function-sources';
import { Deposits1764000002200 } from './1764000002200-deposits';
import { EconomyLedger1764000002400 } from './1764000002400-economy-ledger';
import { EconomyFacts1764000002500 } from './1764000002500-economy-facts';
import { ReliabilityHistoryCursors1764000002501 } from './1764000002501-reliability-history-cursors';
import { RewardStatements1764000002600 } from './1764000002600-reward-statements';
import { StakingMarket1764000002700 } from './1764000002700-staking-market';
import { Withdrawals1764000002800 } from './1764000002800-withdrawals';
import { SubscriptionTraffic1764000002900 } from './1764000002900-subscription-traffic';
import { Promotions1764000003000 } from './1764000003000-promotions';
import { SocialShares1764000003100 } from './1764000003100-social-shares';
import { InboundPlans1764000003200 } from './1764000003200-inbound-plans';
import { TrafficBatches1764000003300 } from './1764000003300-traffic-batches';
import { AccountLocale1764000003400 } from './1764000003400-account-locale';
import { LedgerPlannerStats1764000003410 } from './1764000003410-ledger-planner-stats';
import { EnrollmentTokenServerName1764000003470 } from './1764000003470-enrollment-token-server-name';
import { LedgerDescriptionCodes1764000003500 } from './1764000003500-ledger-description-codes';
import { SocialTelegram1764000003527 } from './1764000003527-social-telegram';
import { NodeHostNames1764000003600 } from './1764000003600-node-host-names';
import { DepositAddresses1764000003700 } from './1764000003700-deposit-addresses';
import { DepositTransfers1764000003800 } from './1764000003800-deposit-transfers';
import { Reachability1764000003900 } from './1764000003900-reachability';
import { JobRuns1764000004000 } from './1764000004000-job-runs';
import { MarketSearchPairs1764000004100 } from './1764000004100-market-search-pairs';
import { SubscriptionServerDrops1764000004230 } from './1764000004230-subscription-server-drops';
import { FeedInvalidation1764000004250 } from './1764000004250-feed-invalidation';
import { ServerAddressRule1764000004300 } from './1764000004300-server-address-rule';
import { PublishedReadModels1764000004310 } from './1764000004310-published-read-models';
import { MoreReadModels1764000004320 } from './1764000004320-more-read-models';

/** Every migration, in order. Never edit one after it is committed: add a new one. */
export const MIGRATIONS = [
  Foundation1763800000000,
  Nodes1763900000000,
  ClientJourney1764000000000,
  Market1764000000100,
  Subscriptions1764000000200,
  ClientSlots1764000000300,
  MarketReportWrites1764000000400,
  ClientSetVersions1764000000500,
  PurchaseBatches1764000000600,
  MarketTriggerPlans1764000000700,
  MarketTriggerEarlyExit1764000000800,
  MarketTriggerCheckNewRows1764000000900,
  ManualServers1764000001000,
  MarketFreeServers1764000001001,
  SlidingRateLimits1764000001100,
  SubscriptionWithdrawals1764000001200,
  JobHeartbeats1764000001201,
  CanonicalServerHosts1764000001300,
  SqlFunctionSources1764000001800,
  Deposits1764000002200,
  EconomyLedger1764000002400,
  EconomyFacts1764000002500,
  ReliabilityHistoryCursors1764000002501,
  RewardStatements1764000002600,
  StakingMarket1764000002700,
  Withdrawals1764000002800,
  SubscriptionTraffic1764000002900,
  Promotions1764000003000,
  SocialShares1764000003100,
  InboundPlans1764000003200,
  TrafficBatches1764000003300,
  AccountLocale1764000003400,
  LedgerPlannerStats1764000003410,
  EnrollmentTokenServerName1764000003470,
  LedgerDescriptionCodes1764000003500,
  SocialTelegram1764000003527,
  NodeHostNames1764000003600,
  DepositAddresses1764000003700,
  DepositTransfers1764000003800,
  Reachability1764000003900,
  JobRuns1764000004000,
  MarketSearchPairs1764000004100,
  SubscriptionServerDrops1764000004230,
  FeedInvalidation1764000004250,
  ServerAddressRule1764000004300,
  PublishedReadModels1764000004310,
  MoreReadModels1764000004320,
] as const;
