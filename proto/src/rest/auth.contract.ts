import { z } from 'zod';
import { LOCALES } from '../locales';
import { emailSchema, requestBody, requiredString, userTypeSchema } from './common.contract';

export const AUTH_ROUTES = {
  generateCode: '/api/auth/generate-code',
  register: '/api/auth/register',
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  verifySession: '/api/auth/verify-session',
  profile: (uuid: string) => `/api/auth/profile/${encodeURIComponent(uuid)}`,
  locale: (uuid: string) => `/api/auth/profile/${encodeURIComponent(uuid)}/locale`,
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  termsAccept: '/api/auth/terms/accept',
  termsStatus: '/api/terms/status',
} as const;

/** docs/product/states.md#market-and-account-states, docs/product/constants.md#market-prices-and-limits: codes are 6 digits; reset passwords at least 8 characters. */
export const CODE_LENGTH = 6;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
export const TERMS_VERSION = '1.0';
export const PRIVACY_VERSION = '1.0';

/** The spec's user-facing messages (docs/product/input-rules.md#market-and-account-input, docs/product/messages.md#market-and-account-messages), shared by the API and the portal. */
export const AUTH_MESSAGES = {
  emailAndPasswordRequired: 'Email and password are required',
  codeRequired: 'Verification code is required',
  codeFormat: 'Verification code must be 6 digits',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  resetCodeRequired: 'Reset code is required',
  newPasswordRequired: 'New password is required',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordTooLong: 'Password must be at most 256 characters long',
  // The same whether the e-mail already has an account or not (no enumeration): the mail says which.
  codeSent: 'Check your email: we sent you a verification code.',
  invalidCode: 'Invalid or expired verification code',
  invalidResetCode: 'Invalid or expired reset code',
  tooManyCodeAttempts: 'Too many incorrect attempts. Please request a new code.',
  accountExists: 'An account with this email already exists. Please sign in instead.',
  registered: 'Registration successful!',
  loginSuccessful: 'Login successful!',
  invalidCredentials: 'Invalid email or password',
  loggedOut: 'Logged out successfully',
  notLoggedIn: 'User not logged in',
  sessionInvalid: 'Session expired or invalid. Please sign in again.',
  accessDenied: 'Access denied: this account belongs to another user',
  clientsOnly: 'This is for client accounts only',
  nodesOnly: 'This is for node operator accounts only',
  forgotPassword: 'If your email is registered, you will receive a password reset code shortly.',
  passwordReset: 'Password has been reset successfully.',
  termsMustBeAccepted: 'You must accept both the Terms of Service and the Protection Policy',
  termsRecorded: 'Terms and policies acceptance recorded',
  termsVersionMismatch: 'Terms version is out of date. Please reload the page and accept again.',
  registrationSuccessTerms: 'Registration successful! Terms and policies accepted.',
  registrationTermsFailed:
    'Registration successful! However, terms acceptance record failed. Please accept terms in settings.',
  registrationCancelled: 'Registration cancelled. You must accept the terms to create an account.',
} as const;

const passwordForLogin = requiredString('password', AUTH_MESSAGES.emailAndPasswordRequired)
  .min(1, AUTH_MESSAGES.emailAndPasswordRequired)
  .max(MAX_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooLong);

const newPassword = (requiredMessage: string) =>
  requiredString('password', requiredMessage)
    .min(1, requiredMessage)
    .min(MIN_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooShort)
    .max(MAX_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooLong);

const code = (requiredMessage: string) =>
  requiredString('code', requiredMessage)
    .trim()
    .min(1, requiredMessage)
    .regex(/^\d{6}$/, AUTH_MESSAGES.codeFormat);

/**
 * The language of a mail sent before the account's own choice is known (the portal sends the
 * language it shows); optional, then Accept-Language decides (docs/i18n.md).
 */
const mailLocale = z
  .enum(LOCALES, { error: () => `locale must be one of: ${LOCALES.join(', ')}` })
  .optional();

export const generateCodeRequestSchema = requestBody({
  email: emailSchema(),
  userType: userTypeSchema,
  locale: mailLocale,
});
export type GenerateCodeRequest = z.infer<typeof generateCodeRequestSchema>;

export const registerRequestSchema = requestBody({
  email: emailSchema(AUTH_MESSAGES.emailAndPasswordRequired),
  password: newPassword(AUTH_MESSAGES.emailAndPasswordRequired),
  userType: userTypeSchema,
  code: code(AUTH_MESSAGES.codeRequired),
  // The old dialog sends null; there is no captcha yet, rate limits stand in for it.
  captchaToken: z.string().max(4096).nullable().optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = requestBody({
  email: emailSchema(AUTH_MESSAGES.emailAndPasswordRequired),
  password: passwordForLogin,
  userType: userTypeSchema,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const forgotPasswordRequestSchema = requestBody({
  email: emailSchema(),
  userType: userTypeSchema,
  locale: mailLocale,
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

/** Field order is the spec's check order: code, new password (docs/product/input-rules.md#market-and-account-input). */
export const resetPasswordRequestSchema = requestBody({
  email: emailSchema(),
  code: code(AUTH_MESSAGES.resetCodeRequired),
  newPassword: newPassword(AUTH_MESSAGES.newPasswordRequired),
  userType: userTypeSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const sessionUserSchema = z.object({
  uuid: z.string().uuid(),
  email: z.string(),
  userType: userTypeSchema,
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const authResponseSchema = z.object({
  success: z.literal(true),
  uuid: z.string().uuid(),
  email: z.string(),
  userType: userTypeSchema,
  token: z.string(),
  expiresAt: z.string(),
  message: z.string(),
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const verifySessionResponseSchema = z.object({
  success: z.literal(true),
  user: sessionUserSchema,
  expiresAt: z.string(),
});
export type VerifySessionResponse = z.infer<typeof verifySessionResponseSchema>;

export const localeSchema = z.enum(LOCALES, {
  error: () => `locale must be one of: ${LOCALES.join(', ')}`,
});

export const profileSchema = sessionUserSchema.extend({
  name: z.string(),
  createdAt: z.string(),
  termsAcceptedAt: z.string().nullable(),
  /** The account's saved language (docs/i18n.md); null: the browser decides. */
  locale: localeSchema.nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileResponseSchema = z.object({
  success: z.literal(true),
  user: profileSchema,
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

/** PUT /api/auth/profile/{uuid}/locale: the account's language (docs/i18n.md). */
export const localeRequestSchema = requestBody({ locale: localeSchema });
export type LocaleRequest = z.infer<typeof localeRequestSchema>;

export const localeResponseSchema = z.object({
  success: z.literal(true),
  locale: localeSchema,
});
export type LocaleResponse = z.infer<typeof localeResponseSchema>;

export const profileQuerySchema = z.strictObject(
  { userType: userTypeSchema.optional() },
  { error: () => 'Unknown query parameter' },
);

const shortText = (max: number) => z.string().max(max, `Must be at most ${max} characters`);

/**
 * The terms-acceptance record of docs/product/records.md#market-and-wallet-records. The server ignores the client's idea of its IP
 * address, uuid, e-mail and user type: those come from the request and the session.
 */
export const termsAcceptRequestSchema = requestBody({
  userType: userTypeSchema.optional(),
  email: z.string().max(254).optional(),
  uuid: z.string().max(64).optional(),
  name: shortText(254).optional(),
  acceptedTerms: z.boolean({ error: 'acceptedTerms must be true or false' }),
  acceptedPrivacy: z.boolean({ error: 'acceptedPrivacy must be true or false' }),
  timestamp: z.string().max(64).optional(),
  ipAddress: shortText(64).optional(),
  userAgent: shortText(1024).optional(),
  browserInfo: z
    .strictObject({
      browser: shortText(128).optional(),
      os: shortText(128).optional(),
      screenResolution: shortText(32).optional(),
    })
    .optional(),
  location: z
    .strictObject({
      city: shortText(128).optional(),
      region: shortText(128).optional(),
      country: shortText(128).optional(),
      coords: z.strictObject({ lat: z.number().nullable(), lng: z.number().nullable() }).optional(),
    })
    .optional(),
  termsVersion: z.literal(TERMS_VERSION, { error: AUTH_MESSAGES.termsVersionMismatch }),
  privacyVersion: z.literal(PRIVACY_VERSION, { error: AUTH_MESSAGES.termsVersionMismatch }),
});
export type TermsAcceptRequest = z.infer<typeof termsAcceptRequestSchema>;

export const termsStatusResponseSchema = z.object({
  success: z.literal(true),
  accepted: z.boolean(),
  acceptedAt: z.string().nullable(),
  termsVersion: z.string().nullable(),
  privacyVersion: z.string().nullable(),
  currentTermsVersion: z.literal(TERMS_VERSION),
  currentPrivacyVersion: z.literal(PRIVACY_VERSION),
});
export type TermsStatusResponse = z.infer<typeof termsStatusResponseSchema>;
