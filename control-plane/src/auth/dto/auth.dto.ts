import {
  forgotPasswordRequestSchema,
  generateCodeRequestSchema,
  localeRequestSchema,
  loginRequestSchema,
  profileQuerySchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  termsAcceptRequestSchema,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';

export class GenerateCodeDto extends createZodDto(generateCodeRequestSchema) {}
export class RegisterDto extends createZodDto(registerRequestSchema) {}
export class LoginDto extends createZodDto(loginRequestSchema) {}
export class ForgotPasswordDto extends createZodDto(forgotPasswordRequestSchema) {}
export class ResetPasswordDto extends createZodDto(resetPasswordRequestSchema) {}
export class TermsAcceptDto extends createZodDto(termsAcceptRequestSchema) {}
export class ProfileQueryDto extends createZodDto(profileQuerySchema) {}
export class LocaleDto extends createZodDto(localeRequestSchema) {}
