import { AccountEntity } from '../accounts/entities/account.entity';
import { TermsAcceptanceEntity } from '../accounts/entities/terms-acceptance.entity';
import { SessionEntity } from '../auth/entities/session.entity';
import { VerificationCodeEntity } from '../auth/entities/verification-code.entity';
import { ContactMessageEntity } from '../contact/entities/contact-message.entity';
import { EnrollmentTokenEntity } from '../nodes/entities/enrollment-token.entity';
import { ServerClientEntity } from '../nodes/entities/server-client.entity';
import { ServerEntity } from '../nodes/entities/server.entity';
import { RateLimitHitEntity } from '../rate-limit/rate-limit-hit.entity';
import { IdempotencyKeyEntity } from '../wallet/entities/idempotency-key.entity';
import { LedgerAccountEntity } from '../wallet/entities/ledger-account.entity';
import { LedgerEntryEntity } from '../wallet/entities/ledger-entry.entity';
import { LedgerTransactionEntity } from '../wallet/entities/ledger-transaction.entity';

export const ENTITIES = [
  AccountEntity,
  TermsAcceptanceEntity,
  SessionEntity,
  VerificationCodeEntity,
  ContactMessageEntity,
  RateLimitHitEntity,
  ServerEntity,
  EnrollmentTokenEntity,
  ServerClientEntity,
  LedgerAccountEntity,
  LedgerTransactionEntity,
  LedgerEntryEntity,
  IdempotencyKeyEntity,
] as const;
