import {
  AUTH_MESSAGES,
  firstIssueMessage,
  loginRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  termsAcceptRequestSchema,
} from '../index';

function messageOf(
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  if (result.success) return null;
  return firstIssueMessage(result.error as Parameters<typeof firstIssueMessage>[0]);
}

describe('auth contract', () => {
  it('should normalise the e-mail to trimmed lower case', () => {
    const parsed = loginRequestSchema.parse({
      email: '  Ann@Example.COM ',
      password: 'x',
      userType: 'client',
    });
    expect(parsed.email).toBe('ann@example.com');
  });

  it.each([
    [{}, AUTH_MESSAGES.emailAndPasswordRequired],
    [{ email: 'a@b.co', userType: 'client' }, AUTH_MESSAGES.emailAndPasswordRequired],
    [{ email: 'a@b', password: 'x', userType: 'client' }, AUTH_MESSAGES.emailInvalid],
    [{ email: 'a@b.co', password: 'x', userType: 'root' }, 'userType must be "client" or "node"'],
    [{ email: 'a@b.co', password: 'x', userType: 'client', extra: 1 }, 'Unknown field: extra'],
    ['a string', 'Request body must be a JSON object'],
  ])('should explain an invalid login %j', (body, message) => {
    expect(messageOf(loginRequestSchema, body)).toBe(message);
  });

  it('should check reset fields in the spec order: code, new password, length', () => {
    const base = { email: 'a@b.co', userType: 'client' };
    expect(messageOf(resetPasswordRequestSchema, { ...base })).toBe(
      AUTH_MESSAGES.resetCodeRequired,
    );
    expect(messageOf(resetPasswordRequestSchema, { ...base, code: '123456' })).toBe(
      AUTH_MESSAGES.newPasswordRequired,
    );
    expect(
      messageOf(resetPasswordRequestSchema, { ...base, code: '123456', newPassword: '1234567' }),
    ).toBe(AUTH_MESSAGES.passwordTooShort);
    expect(
      messageOf(resetPasswordRequestSchema, { ...base, code: '123456', newPassword: '12345678' }),
    ).toBeNull();
  });

  it('should accept the dialog payload with a null captcha token', () => {
    expect(
      messageOf(registerRequestSchema, {
        email: 'a@b.co',
        password: 'longenough',
        userType: 'node',
        code: '012345',
        captchaToken: null,
      }),
    ).toBeNull();
  });

  it('should require the current terms and privacy versions', () => {
    const record = {
      acceptedTerms: true,
      acceptedPrivacy: true,
      termsVersion: '1.0',
      privacyVersion: '1.0',
    };
    expect(messageOf(termsAcceptRequestSchema, record)).toBeNull();
    expect(messageOf(termsAcceptRequestSchema, { ...record, privacyVersion: '2.0' })).toBe(
      AUTH_MESSAGES.termsVersionMismatch,
    );
  });
});
