import { SubscriptionTrafficDayEntity } from '../traffic/entities/subscription-traffic-day.entity';
import { AccountEntity } from '../accounts/entities/account.entity';
import { TermsAcceptanceEntity } from '../accounts/entities/terms-acceptance.entity';
import { SessionEntity } from '../auth/entities/session.entity';
import { VerificationCodeEntity } from '../auth/entities/verification-code.entity';
import { DepositAddressEntity } from '../deposits/entities/deposit-address.entity';
import { DepositCreditEntity } from '../deposits/entities/deposit-credit.entity';
import { DepositRequestEntity } from '../deposits/entities/deposit-request.entity';
import { DepositSweepEntity } from '../deposits/entities/deposit-sweep.entity';
import { DepositTransferEntity } from '../deposits/entities/deposit-transfer.entity';
import { DepositWatchCursorEntity } from '../deposits/entities/deposit-watch-cursor.entity';
import { ContactMessageEntity } from '../contact/entities/contact-message.entity';
import { EnrollmentTokenEntity } from '../enrollment/entities/enrollment-token.entity';
import { ServerClientEntity } from '../client-sets/entities/server-client.entity';
import { ServerClientSetEntity } from '../client-sets/entities/server-client-set.entity';
import { ServerEntity } from '../nodes/entities/server.entity';
import { ServerHistoryCursorEntity } from '../reliability-history/entities/server-history-cursor.entity';
import { ServerReliabilityDayEntity } from '../reliability-history/entities/server-reliability-day.entity';
import { OperatorEconomySettingsEntity } from '../staking/entities/operator-economy-settings.entity';
import { RewardRunEntity } from '../rewards/entities/reward-run.entity';
import { RewardStakingStatementEntity } from '../rewards/entities/reward-staking-statement.entity';
import { RewardStatementEntity } from '../rewards/entities/reward-statement.entity';
import { ServerBanNoticeEntity } from '../rewards/entities/server-ban-notice.entity';
import { RateLimitBucketEntity } from '../rate-limit/rate-limit-bucket.entity';
import { MarketCountEntity } from '../market/entities/market-count.entity';
import { MarketListingEntity } from '../market/entities/market-listing.entity';
import { MarketProcessingEntity } from '../market/entities/market-processing.entity';
import { MarketSettingsEntity } from '../market/entities/market-settings.entity';
import { SubscriptionPauseEntity } from '../subscriptions/entities/subscription-pause.entity';
import { JobHeartbeatEntity } from '../subscriptions/entities/job-heartbeat.entity';
import { JobRunEntity } from '../jobs/entities/job-run.entity';
import { SubscriptionServerDropEntity } from '../subscriptions/entities/subscription-server-drop.entity';
import { SubscriptionReplacementEntity } from '../subscriptions/entities/subscription-replacement.entity';
import { SubscriptionServerEntity } from '../subscriptions/entities/subscription-server.entity';
import { SubscriptionEntity } from '../subscriptions/entities/subscription.entity';
import { IdempotencyKeyEntity } from '../wallet/entities/idempotency-key.entity';
import { LedgerAccountEntity } from '../wallet/entities/ledger-account.entity';
import { LedgerEntryEntity } from '../wallet/entities/ledger-entry.entity';
import { LedgerTransactionEntity } from '../wallet/entities/ledger-transaction.entity';
import { PromotionPurchaseEntity } from '../promotions/entities/promotion-purchase.entity';
import { ServerPromotionEntity } from '../promotions/entities/server-promotion.entity';
import { WithdrawalEntity } from '../withdrawals/entities/withdrawal.entity';
import { ReachabilityObservationEntity } from '../reachability/entities/reachability-observation.entity';
import { ReachabilityReporterEntity } from '../reachability/entities/reachability-reporter.entity';
import { ServerReachabilityEntity } from '../reachability/entities/server-reachability.entity';
import { VantagePointTokenEntity } from '../reachability/entities/vantage-point-token.entity';
import { VantagePointEntity } from '../reachability/entities/vantage-point.entity';
import { SocialShareEntity } from '../social/entities/social-share.entity';

export const ENTITIES = [
  AccountEntity,
  TermsAcceptanceEntity,
  SessionEntity,
  VerificationCodeEntity,
  ContactMessageEntity,
  RateLimitBucketEntity,
  ServerEntity,
  EnrollmentTokenEntity,
  ServerClientEntity,
  ServerClientSetEntity,
  LedgerAccountEntity,
  LedgerTransactionEntity,
  LedgerEntryEntity,
  IdempotencyKeyEntity,
  DepositRequestEntity,
  DepositAddressEntity,
  DepositCreditEntity,
  DepositTransferEntity,
  DepositWatchCursorEntity,
  DepositSweepEntity,
  MarketListingEntity,
  MarketCountEntity,
  MarketSettingsEntity,
  MarketProcessingEntity,
  SubscriptionEntity,
  SubscriptionServerEntity,
  SubscriptionPauseEntity,
  SubscriptionServerDropEntity,
  JobHeartbeatEntity,
  JobRunEntity,
  ServerReliabilityDayEntity,
  ServerHistoryCursorEntity,
  OperatorEconomySettingsEntity,
  WithdrawalEntity,
  RewardRunEntity,
  RewardStatementEntity,
  RewardStakingStatementEntity,
  ServerBanNoticeEntity,
  SubscriptionTrafficDayEntity,
  ServerPromotionEntity,
  PromotionPurchaseEntity,
  SocialShareEntity,
  VantagePointEntity,
  VantagePointTokenEntity,
  ReachabilityObservationEntity,
  ServerReachabilityEntity,
  ReachabilityReporterEntity,
  SubscriptionReplacementEntity,
] as const;
