import { AccountEntity } from '../accounts/entities/account.entity';
import { TermsAcceptanceEntity } from '../accounts/entities/terms-acceptance.entity';
import { SessionEntity } from '../auth/entities/session.entity';
import { VerificationCodeEntity } from '../auth/entities/verification-code.entity';
import { ContactMessageEntity } from '../contact/entities/contact-message.entity';
import { EnrollmentTokenEntity } from '../nodes/entities/enrollment-token.entity';
import { ServerClientEntity } from '../nodes/entities/server-client.entity';
import { ServerEntity } from '../nodes/entities/server.entity';
import { RateLimitHitEntity } from '../rate-limit/rate-limit-hit.entity';

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
] as const;
