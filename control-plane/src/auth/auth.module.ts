import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AuthController } from './auth.controller';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { PasswordHasher } from './password-hasher';
import { ProfileService } from './profile.service';
import { OwnsAccountGuard } from './own-account.decorator';
import { SessionGuard } from './session.guard';
import { SessionService } from './session.service';
import { VerificationCodeService } from './verification-code.service';

/** Exports the guards so every domain can protect its `/{uuid}` routes the same way. */
@Module({
  imports: [AccountsModule, RateLimitModule],
  controllers: [AuthController],
  providers: [
    AuthRepository,
    AuthService,
    PasswordHasher,
    ProfileService,
    SessionService,
    VerificationCodeService,
    SessionGuard,
    OwnsAccountGuard,
  ],
  exports: [SessionService, SessionGuard, OwnsAccountGuard],
})
export class AuthModule {}
