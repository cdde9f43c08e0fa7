import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AUTH_MESSAGES,
  type AuthResponse,
  type ForgotPasswordRequest,
  type GenerateCodeRequest,
  type Locale,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
} from '@scn/proto';
import { AccountsRepository } from '../accounts/accounts.repository';
import type { AccountEntity } from '../accounts/entities/account.entity';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { MailService } from '../mail/mail.service';
import { RATE_LIMITS } from '../rate-limit/rate-limit.rules';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { AuthException } from './auth.exception';
import { accountExistsMail, passwordResetMail, verificationCodeMail } from './auth.mails';
import { AuthRepository } from './auth.repository';
import { PasswordHasher } from './password-hasher';
import { type IssuedSession, type SessionContext, SessionService } from './session.service';
import { VerificationCodeService } from './verification-code.service';

export type AuthResult = { response: AuthResponse; session: IssuedSession };

/** Registration, login and password reset (docs/product/states.md#market-and-account-states, docs/product/input-rules.md#market-and-account-input, docs/product/messages.md#market-and-account-messages). */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('AuthService');

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly accounts: AccountsRepository,
    private readonly repository: AuthRepository,
    private readonly codes: VerificationCodeService,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly rateLimits: RateLimitService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Answers the same whether the e-mail already has an account or not. A code is
   * issued either way before the answer (for an existing account it is never mailed, so register
   * attempts against it count and fail like any wrong code); whether the account exists is
   * looked up after the answer, and then either the code or a note that the account exists is
   * mailed. Sending the two mails before answering made the existing case ~2 ms slower at the
   * median (nodemailer encoding a longer text), enough for a KS test to tell the two apart
   * (docs/security.md): now the answer waits for neither. A mail server that refuses is logged;
   * the portal's "Send code" can be pressed again.
   */
  /** `locale`: the language of the mail when no account says its own (docs/i18n.md). */
  async sendRegistrationCode(
    request: GenerateCodeRequest,
    ip: string,
    locale: Locale = 'en',
  ): Promise<string> {
    await this.rateLimits.consume(RATE_LIMITS.generateCode(ip, request.email));
    const code = await this.codes.issue({
      email: request.email,
      userType: request.userType,
      purpose: 'register',
    });
    setImmediate(() => {
      this.mailRegistration(request, code, locale).catch((error: unknown) =>
        this.logger.error({ err: error }, 'Sending the verification code failed'),
      );
    });
    return AUTH_MESSAGES.codeSent;
  }

  async register(request: RegisterRequest, context: SessionContext): Promise<AuthResult> {
    await this.rateLimits.consume(RATE_LIMITS.register(context.ipAddress, request.email));
    const target = {
      email: request.email,
      userType: request.userType,
      purpose: 'register' as const,
    };
    const check = await this.codes.check(target, request.code);
    if (check.outcome === 'too_many_attempts') throw new AuthException('too_many_code_attempts');
    if (check.outcome === 'invalid') throw new AuthException('invalid_code');

    const passwordHash = await this.hasher.hash(request.password);
    const account = {
      uuid: randomUUID(),
      email: request.email,
      userType: request.userType,
      passwordHash,
      name: request.email.split('@')[0] ?? request.email,
    };
    // The code is consumed, the account and its first session created, all or nothing.
    const session = await this.transactions.run(async (tx) => {
      if (!(await this.repository.deleteCode(tx, check.id, check.codeHash))) {
        throw new AuthException('invalid_code');
      }
      if (!(await this.accounts.insert(tx, account))) throw new AuthException('account_exists');
      return this.sessions.create(tx, account.uuid, context);
    });
    return { session, response: this.authResponse(account, session, AUTH_MESSAGES.registered) };
  }

  /**
   * Failures count against the sign-in limits; a success gives its slots back, so the owner
   * signing in often is never limited by it. An unknown e-mail still costs one argon2 check.
   */
  async login(request: LoginRequest, context: SessionContext): Promise<AuthResult> {
    const admission = await this.rateLimits.consume(
      RATE_LIMITS.login(context.ipAddress, request.email),
    );
    const account = await this.accounts.findByLogin(request.email, request.userType);
    const valid = await this.hasher.verify(account?.passwordHash ?? null, request.password);
    if (!account || !valid) throw new AuthException('invalid_credentials');
    const session = await this.transactions.run((tx) =>
      this.sessions.create(tx, account.uuid, context),
    );
    // Best effort: the session exists, so a failure here must not turn the sign-in into an error.
    await admission
      .release()
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'Giving back the sign-in rate-limit slots failed'),
      );
    return {
      session,
      response: this.authResponse(account, session, AUTH_MESSAGES.loginSuccessful),
    };
  }

  /**
   * Always answers the same, at once: whether the account exists is decided after the response,
   * so neither the message nor the timing tells (docs/product/messages.md#market-and-account-messages).
   */
  async requestPasswordReset(
    request: ForgotPasswordRequest,
    ip: string,
    locale: Locale = 'en',
  ): Promise<string> {
    await this.rateLimits.consume(RATE_LIMITS.forgotPassword(ip, request.email));
    setImmediate(() => {
      this.sendResetCode(request, locale).catch((error: unknown) =>
        this.logger.error({ err: error }, 'Sending a password reset code failed'),
      );
    });
    return AUTH_MESSAGES.forgotPassword;
  }

  async resetPassword(request: ResetPasswordRequest, ip: string): Promise<string> {
    await this.rateLimits.consume(RATE_LIMITS.resetPassword(ip, request.email));
    const target = { email: request.email, userType: request.userType, purpose: 'reset' as const };
    const check = await this.codes.check(target, request.code);
    if (check.outcome === 'too_many_attempts') throw new AuthException('too_many_code_attempts');
    if (check.outcome === 'invalid') throw new AuthException('invalid_reset_code');
    const account = await this.accounts.findByLogin(request.email, request.userType);
    // Hashed either way: a right code for a vanished account costs what a reset costs.
    const passwordHash = await this.hasher.hash(request.newPassword);
    if (!account) throw new AuthException('invalid_reset_code');
    await this.transactions.run(async (tx) => {
      if (!(await this.repository.deleteCode(tx, check.id, check.codeHash))) {
        throw new AuthException('invalid_reset_code');
      }
      await this.accounts.updatePasswordHash(tx, account.uuid, passwordHash);
      // Whoever knew the old password is signed out everywhere.
      await this.repository.revokeAllSessions(tx, account.uuid);
    });
    return AUTH_MESSAGES.passwordReset;
  }

  private async mailRegistration(
    request: GenerateCodeRequest,
    code: string,
    locale: Locale,
  ): Promise<void> {
    const existing = await this.accounts.findByLogin(request.email, request.userType);
    const { publicUrl } = this.config;
    await this.mail.send(
      existing
        ? accountExistsMail(request.email, request.userType, publicUrl, existing.locale ?? locale)
        : verificationCodeMail(request.email, request.userType, code, publicUrl, locale),
    );
  }

  /**
   * A code is stored for an unknown e-mail too (and never mailed): reset attempts then count and
   * run out after 5 for every e-mail alike, instead of only for the ones that have an account.
   */
  private async sendResetCode(request: ForgotPasswordRequest, locale: Locale): Promise<void> {
    const account = await this.accounts.findByLogin(request.email, request.userType);
    const code = await this.codes.issue({
      email: request.email,
      userType: request.userType,
      purpose: 'reset',
    });
    if (!account) return;
    await this.mail.send(
      passwordResetMail(
        account.email,
        account.userType,
        code,
        this.config.publicUrl,
        account.locale ?? locale,
      ),
    );
  }

  private authResponse(
    account: Pick<AccountEntity, 'uuid' | 'email' | 'userType'>,
    session: IssuedSession,
    message: string,
  ): AuthResponse {
    return {
      success: true,
      uuid: account.uuid,
      email: account.email,
      userType: account.userType,
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      message,
    };
  }
}
