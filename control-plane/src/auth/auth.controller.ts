import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AUTH_MESSAGES,
  type AuthResponse,
  type Locale,
  type MessageResponse,
  type LocaleResponse,
  type ProfileResponse,
  type TermsStatusResponse,
  type VerifySessionResponse,
} from '@scn/proto';
import type { Request, Response } from 'express';
import { clientIp, userAgent } from '../common/client-ip';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { localeFromAcceptLanguage } from '../i18n/catalogues';
import type { ActiveSession } from './auth.repository';
import { AuthException } from './auth.exception';
import { AuthService } from './auth.service';
import {
  ForgotPasswordDto,
  GenerateCodeDto,
  LoginDto,
  LocaleDto,
  ProfileQueryDto,
  RegisterDto,
  ResetPasswordDto,
  TermsAcceptDto,
} from './dto/auth.dto';
import { ProfileService } from './profile.service';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from './session-cookie';
import { OwnAccount } from './own-account.decorator';
import { CurrentSession, SessionGuard } from './session.guard';
import { SessionService } from './session.service';

function contextOf(request: Request) {
  return { ipAddress: clientIp(request), userAgent: userAgent(request) };
}

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly profiles: ProfileService,
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('api/auth/generate-code')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail a 6-digit registration code (10 minutes, 5 attempts)' })
  async generateCode(
    @Body() body: GenerateCodeDto,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    return {
      success: true,
      message: await this.auth.sendRegistrationCode(
        body,
        clientIp(request),
        mailLocale(body, request),
      ),
    };
  }

  @Post('api/auth/register')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account with an e-mailed code; starts a session' })
  async register(
    @Body() body: RegisterDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AuthResponse> {
    const result = await this.auth.register(body, contextOf(request));
    setSessionCookie(response, request, this.config, result.session);
    return result.response;
  }

  @Post('api/auth/login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in; sets the session cookie and returns the bearer token' })
  async login(
    @Body() body: LoginDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AuthResponse> {
    const result = await this.auth.login(body, contextOf(request));
    setSessionCookie(response, request, this.config, result.session);
    return result.response;
  }

  @Post('api/auth/logout')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke the current session server-side' })
  async logout(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const token = sessionTokenOf(request);
    if (token) await this.sessions.revoke(token);
    clearSessionCookie(response, request, this.config);
    return { success: true, message: AUTH_MESSAGES.loggedOut };
  }

  @Get('api/auth/verify-session')
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: 'Check the session; 401 when it is missing, expired or revoked' })
  verifySession(@CurrentSession() session: ActiveSession): VerifySessionResponse {
    const { uuid, email, userType } = session.account;
    return {
      success: true,
      user: { uuid, email, userType },
      expiresAt: session.expiresAt.toISOString(),
    };
  }

  @Get('api/auth/profile/:uuid')
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: "The session's own profile; another account's uuid is 403" })
  async profile(
    @OwnAccount() _uuid: string,
    @Query() query: ProfileQueryDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<ProfileResponse> {
    if (query.userType !== undefined && query.userType !== session.account.userType) {
      throw new AuthException('access_denied');
    }
    return { success: true, user: await this.profiles.profile(session) };
  }

  @Put('api/auth/profile/:uuid/locale')
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: "Save the session's own account's language (docs/i18n.md)" })
  async setLocale(
    @OwnAccount() _uuid: string,
    @Body() body: LocaleDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<LocaleResponse> {
    return { success: true, locale: await this.profiles.setLocale(session, body.locale) };
  }

  @Post('api/auth/forgot-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail a reset code if the account exists; always the same answer' })
  async forgotPassword(
    @Body() body: ForgotPasswordDto,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    return {
      success: true,
      message: await this.auth.requestPasswordReset(
        body,
        clientIp(request),
        mailLocale(body, request),
      ),
    };
  }

  @Post('api/auth/reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password with the e-mailed code; signs out every session' })
  async resetPassword(
    @Body() body: ResetPasswordDto,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    return { success: true, message: await this.auth.resetPassword(body, clientIp(request)) };
  }

  @Post('api/auth/terms/accept')
  @HttpCode(201)
  @UseGuards(SessionGuard)
  @ApiOperation({
    summary: 'Record acceptance of the terms and protection policy (IP from the request)',
  })
  async acceptTerms(
    @Body() body: TermsAcceptDto,
    @Req() request: Request,
    @CurrentSession() session: ActiveSession,
  ): Promise<MessageResponse> {
    return {
      success: true,
      message: await this.profiles.acceptTerms(session, body, contextOf(request)),
    };
  }

  @Get('api/terms/status')
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: "The session's latest acceptance and the current versions" })
  termsStatus(@CurrentSession() session: ActiveSession): Promise<TermsStatusResponse> {
    return this.profiles.termsStatus(session);
  }
}

/** The language of a mail before an account's own: the portal's `locale`, else Accept-Language. */
function mailLocale(body: { locale?: Locale }, request: Request): Locale {
  return body.locale ?? localeFromAcceptLanguage(request.headers['accept-language']);
}
