import { AUTH_MESSAGES } from '@scn/proto';
import { registerAccount, uniqueEmail } from '../support/accounts';
import { freshIp, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const count = async (table: string, where = 'true', params: unknown[] = []) =>
  Number(
    (
      await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, params)
    )[0]?.n,
  );

async function sendCode(email: string, userType: 'client' | 'node' = 'client', ip = freshIp()) {
  const since = t.smtp.mails.length;
  await t
    .http()
    .post('/api/auth/generate-code')
    .set('X-Forwarded-For', ip)
    .send({ email, userType })
    .expect(200);
  return t.smtp.codeFor(email, since);
}

function register(body: Record<string, unknown>, ip = freshIp()) {
  return t.http().post('/api/auth/register').set('X-Forwarded-For', ip).send(body);
}

describe('registration', () => {
  it('should e-mail a 6-digit code and store only its hash when a code is requested', async () => {
    const email = uniqueEmail();
    const res = await t
      .http()
      .post('/api/auth/generate-code')
      .send({ email, userType: 'client' })
      .expect(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.codeSent });
    const code = await t.smtp.codeFor(email);
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await t.db.query<{ code_hash: string; expires_at: Date; created_at: Date }>(
      'SELECT code_hash, expires_at, created_at FROM verification_codes WHERE email = $1',
      [email],
    );
    expect(row?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.code_hash).not.toContain(code);
    const ttl = (row!.expires_at.getTime() - row!.created_at.getTime()) / 1000;
    expect(ttl).toBeCloseTo(600, -1);
  });

  it('should create the account, a session and an httpOnly SameSite cookie when the code is right', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email, 'node');
    const res = await register({
      email,
      password: 'longenough1',
      userType: 'node',
      code,
      captchaToken: null,
    }).expect(201);
    expect(res.body).toMatchObject({
      success: true,
      email,
      userType: 'node',
      message: AUTH_MESSAGES.registered,
    });
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0] ?? '';
    expect(cookie).toMatch(/^scn_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // plain http PUBLIC_URL
    const [account] = await t.db.query<{ password_hash: string; name: string }>(
      'SELECT password_hash, name FROM accounts WHERE uuid = $1',
      [res.body.uuid],
    );
    expect(account?.password_hash).toMatch(/^\$argon2id\$/);
    expect(account?.name).toBe(email.split('@')[0]);
    expect(await count('verification_codes', 'email = $1', [email])).toBe(0);
    expect(await count('sessions', 'account_uuid = $1', [res.body.uuid])).toBe(1);
  });

  it('should let one e-mail hold a client and a node account', async () => {
    const email = uniqueEmail();
    const client = await registerAccount(t, { email, userType: 'client' });
    const node = await registerAccount(t, { email, userType: 'node' });
    expect(client.uuid).not.toBe(node.uuid);
  });

  it('should refuse a wrong code and write nothing', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await register({
      email,
      password: 'longenough1',
      userType: 'client',
      code: wrong,
    }).expect(400);
    expect(res.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.invalidCode,
      code: 'auth.invalid_code',
    });
    expect(await count('accounts', 'email = $1', [email])).toBe(0);
    expect(await count('sessions')).toBeGreaterThanOrEqual(0);
  });

  it('should refuse the 6th attempt even with the right code', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      await register({ email, password: 'longenough1', userType: 'client', code: wrong }).expect(
        400,
      );
    }
    const res = await register({ email, password: 'longenough1', userType: 'client', code }).expect(
      429,
    );
    expect(res.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.tooManyCodeAttempts,
      code: 'auth.too_many_code_attempts',
    });
    expect(await count('accounts', 'email = $1', [email])).toBe(0);
  });

  it('should accept the right code on the 5th attempt', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) {
      await register({ email, password: 'longenough1', userType: 'client', code: wrong }).expect(
        400,
      );
    }
    await register({ email, password: 'longenough1', userType: 'client', code }).expect(201);
  });

  it('should refuse an expired code', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    await t.db.query(
      `UPDATE verification_codes SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [email],
    );
    const res = await register({ email, password: 'longenough1', userType: 'client', code }).expect(
      400,
    );
    expect(res.body.message).toBe(AUTH_MESSAGES.invalidCode);
    expect(await count('accounts', 'email = $1', [email])).toBe(0);
  });

  it('should replace the old code when a new one is requested', async () => {
    const email = uniqueEmail();
    const first = await sendCode(email);
    const second = await sendCode(email);
    expect(await count('verification_codes', 'email = $1', [email])).toBe(1);
    if (first !== second) {
      await register({ email, password: 'longenough1', userType: 'client', code: first }).expect(
        400,
      );
    }
    await register({ email, password: 'longenough1', userType: 'client', code: second }).expect(
      201,
    );
  });

  it('should use a code only once', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    await register({ email, password: 'longenough1', userType: 'client', code }).expect(201);
    const res = await register({ email, password: 'longenough1', userType: 'client', code }).expect(
      400,
    );
    expect(res.body.message).toBe(AUTH_MESSAGES.invalidCode);
  });

  it('should not bind a code to another account type', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email, 'client');
    await register({ email, password: 'longenough1', userType: 'node', code }).expect(400);
  });

  it('should answer a code request for an existing account exactly as for a new e-mail, and tell the owner by mail', async () => {
    const account = await registerAccount(t);
    const stranger = uniqueEmail();
    const ask = (email: string) =>
      t
        .http()
        .post('/api/auth/generate-code')
        .set('X-Forwarded-For', freshIp())
        .send({ email, userType: 'client' });
    const since = t.smtp.mails.length;
    const existing = await ask(account.email);
    const fresh = await ask(stranger);
    expect(existing.status).toBe(200);
    expect(fresh.status).toBe(200);
    expect(existing.body).toEqual({ success: true, message: AUTH_MESSAGES.codeSent });
    expect(fresh.body).toEqual(existing.body);
    expect(Object.keys(existing.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    const ownerMail = await t.smtp.waitFor(account.email, { since });
    expect(ownerMail.subject).toBe('Your SCN account');
    expect(ownerMail.text).toContain('one already exists');
    expect(ownerMail.text).toContain(`sign in at ${t.config.publicUrl}`);
    expect(ownerMail.text).toContain('Forgot password');
    expect(ownerMail.text).not.toMatch(/\d{6}/);
    expect(await t.smtp.codeFor(stranger, since)).toMatch(/^\d{6}$/);

    // Guessing codes tells nothing either: both e-mails run out of attempts alike.
    for (const email of [account.email, stranger]) {
      for (let i = 0; i < 5; i += 1) {
        const res = await register({
          email,
          password: 'longenough1',
          userType: 'client',
          code: '000000',
        });
        expect([res.status, res.body.message]).toEqual([400, AUTH_MESSAGES.invalidCode]);
      }
      const sixth = await register({
        email,
        password: 'longenough1',
        userType: 'client',
        code: '000000',
      });
      expect([sixth.status, sixth.body.message]).toEqual([429, AUTH_MESSAGES.tooManyCodeAttempts]);
    }
    expect(await count('accounts', 'email = $1', [stranger])).toBe(0);
  });

  it('should rate-limit code requests per e-mail and address, and per e-mail from anywhere, with 429 and Retry-After', async () => {
    const email = uniqueEmail();
    const ip = freshIp();
    const ask = (from: string) =>
      t
        .http()
        .post('/api/auth/generate-code')
        .set('X-Forwarded-For', from)
        .send({ email, userType: 'client' });
    for (let i = 0; i < 5; i += 1) await ask(ip).expect(200);
    const limited = await ask(ip).expect(429);
    expect(limited.body.success).toBe(false);
    expect(limited.body.message).toMatch(/^Too many requests\. Please try again in /);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    // Another address may still ask for this e-mail, up to the e-mail-wide ceiling of 10.
    for (let i = 0; i < 5; i += 1) await ask(freshIp()).expect(200);
    const ceiling = await ask(freshIp()).expect(429);
    expect(Number(ceiling.headers['retry-after'])).toBeGreaterThan(3500);
  });

  it('should rate-limit code requests per IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i += 1) {
      await t
        .http()
        .post('/api/auth/generate-code')
        .set('X-Forwarded-For', ip)
        .send({ email: uniqueEmail(), userType: 'client' })
        .expect(200);
    }
    await t
      .http()
      .post('/api/auth/generate-code')
      .set('X-Forwarded-For', ip)
      .send({ email: uniqueEmail(), userType: 'client' })
      .expect(429);
  });
});

describe('login, sessions and logout', () => {
  it('should sign in with the right password and return the same token in body and cookie', async () => {
    const account = await registerAccount(t);
    const res = await t
      .http()
      .post('/api/auth/login')
      .set('X-Forwarded-For', freshIp())
      .send({ email: account.email, password: account.password, userType: account.userType })
      .expect(200);
    expect(res.body).toMatchObject({
      success: true,
      uuid: account.uuid,
      email: account.email,
      message: AUTH_MESSAGES.loginSuccessful,
    });
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0] ?? '';
    expect(cookie).toContain(`scn_session=${res.body.token}`);
  });

  it('should normalise the e-mail (case and spaces) on login', async () => {
    const account = await registerAccount(t);
    await t
      .http()
      .post('/api/auth/login')
      .send({
        email: `  ${account.email.toUpperCase()} `,
        password: account.password,
        userType: account.userType,
      })
      .expect(200);
  });

  it('should refuse a wrong password, an unknown e-mail and the wrong account type with one message', async () => {
    const account = await registerAccount(t, { userType: 'client' });
    const attempts = [
      { email: account.email, password: 'wrong password', userType: 'client' },
      { email: uniqueEmail(), password: account.password, userType: 'client' },
      { email: account.email, password: account.password, userType: 'node' },
    ];
    for (const body of attempts) {
      const res = await t
        .http()
        .post('/api/auth/login')
        .set('X-Forwarded-For', freshIp())
        .send(body)
        .expect(401);
      expect(res.body).toEqual({
        success: false,
        message: AUTH_MESSAGES.invalidCredentials,
        code: 'auth.invalid_credentials',
      });
    }
  });

  it('should let the owner sign in from their address while an attacker at another is limited', async () => {
    const account = await registerAccount(t);
    const attacker = freshIp();
    const owner = freshIp();
    const login = (ip: string, password: string) =>
      t
        .http()
        .post('/api/auth/login')
        .set('X-Forwarded-For', ip)
        .send({ email: account.email, password, userType: 'client' });
    for (let i = 0; i < 10; i += 1) await login(attacker, 'wrong guess').expect(401);
    const limited = await login(attacker, 'wrong guess').expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
    // Not even the right password gets the attacker's address through now.
    await login(attacker, account.password).expect(429);
    for (let i = 0; i < 5; i += 1) await login(attacker, 'wrong guess').expect(429);

    await login(owner, account.password).expect(200);
    // The owner's own typos count against the owner's address only, and a success gives back.
    for (let i = 0; i < 9; i += 1) await login(owner, 'typo').expect(401);
    await login(owner, account.password).expect(200);
    await login(owner, account.password).expect(200);
  });

  it('should stop a many-address attack on one account at the e-mail-wide ceiling', async () => {
    const account = await registerAccount(t);
    const login = (ip: string, password: string) =>
      t
        .http()
        .post('/api/auth/login')
        .set('X-Forwarded-For', ip)
        .send({ email: account.email, password, userType: 'client' });
    // 100 failures from 100 addresses, none of them over its own limits.
    for (let batch = 0; batch < 20; batch += 1) {
      const statuses = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          login(`192.0.2.${batch * 5 + i + 1}`, 'wrong guess').then((r) => r.status),
        ),
      );
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
    }
    const limited = await login('192.0.2.201', 'wrong guess').expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    await login('192.0.2.202', account.password).expect(429);
    // Other accounts are not held back by it.
    const other = await registerAccount(t);
    await t
      .http()
      .post('/api/auth/login')
      .set('X-Forwarded-For', '192.0.2.203')
      .send({ email: other.email, password: other.password, userType: 'client' })
      .expect(200);
  });

  it('should verify a session by bearer token and by cookie', async () => {
    const account = await registerAccount(t);
    const byBearer = await t
      .http()
      .get('/api/auth/verify-session')
      .set('Authorization', `Bearer ${account.token}`)
      .expect(200);
    expect(byBearer.body).toMatchObject({
      success: true,
      user: { uuid: account.uuid, email: account.email, userType: 'client' },
    });
    await t.http().get('/api/auth/verify-session').set('Cookie', account.cookie).expect(200);
  });

  it('should answer 401 without a session and with a forged token', async () => {
    const none = await t.http().get('/api/auth/verify-session').expect(401);
    expect(none.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.notLoggedIn,
      code: 'auth.not_logged_in',
    });
    const forged = await t
      .http()
      .get('/api/auth/verify-session')
      .set('Authorization', `Bearer ${'A'.repeat(43)}`)
      .expect(401);
    expect(forged.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.sessionInvalid,
      code: 'auth.session_invalid',
    });
  });

  it('should revoke the session server-side on logout', async () => {
    const account = await registerAccount(t);
    const res = await t
      .http()
      .post('/api/auth/logout')
      .set('Authorization', `Bearer ${account.token}`)
      .expect(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.loggedOut });
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toMatch(/scn_session=;/);
    await t
      .http()
      .get('/api/auth/verify-session')
      .set('Authorization', `Bearer ${account.token}`)
      .expect(401);
    await t.http().get('/api/auth/verify-session').set('Cookie', account.cookie).expect(401);
    expect(
      await count('sessions', 'account_uuid = $1 AND revoked_at IS NOT NULL', [account.uuid]),
    ).toBe(1);
  });

  it('should refuse an expired session', async () => {
    const account = await registerAccount(t);
    await t.db.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE account_uuid = $1`,
      [account.uuid],
    );
    await t
      .http()
      .get('/api/auth/verify-session')
      .set('Authorization', `Bearer ${account.token}`)
      .expect(401);
  });

  it('should answer logout without a session with success', async () => {
    await t.http().post('/api/auth/logout').expect(200);
  });
});

describe('the saved language (docs/i18n.md)', () => {
  const profileOf = async (account: { uuid: string; token: string }) =>
    (
      await t
        .http()
        .get(`/api/auth/profile/${account.uuid}`)
        .set('Authorization', `Bearer ${account.token}`)
        .expect(200)
    ).body.user.locale;

  it('should save the language of the session account and show it in the profile', async () => {
    const me = await registerAccount(t);
    expect(await profileOf(me)).toBeNull();
    const res = await t
      .http()
      .put(`/api/auth/profile/${me.uuid}/locale`)
      .set('Authorization', `Bearer ${me.token}`)
      .send({ locale: 'fa' })
      .expect(200);
    expect(res.body).toEqual({ success: true, locale: 'fa' });
    expect(await profileOf(me)).toBe('fa');
    await t
      .http()
      .put(`/api/auth/profile/${me.uuid}/locale`)
      .set('Authorization', `Bearer ${me.token}`)
      .send({ locale: 'zh' })
      .expect(200);
    expect(await profileOf(me)).toBe('zh');
  });

  it('should refuse a language it does not speak or another field with 400, writing nothing', async () => {
    const me = await registerAccount(t);
    const bad = await t
      .http()
      .put(`/api/auth/profile/${me.uuid}/locale`)
      .set('Authorization', `Bearer ${me.token}`)
      .send({ locale: 'de' })
      .expect(400);
    expect(bad.body).toEqual({
      success: false,
      message: 'locale must be one of: en, fa, ru, zh',
      code: 'common.invalid',
      field: 'locale',
    });
    const extra = await t
      .http()
      .put(`/api/auth/profile/${me.uuid}/locale`)
      .set('Authorization', `Bearer ${me.token}`)
      .send({ locale: 'ru', theme: 'dark' })
      .expect(400);
    expect(extra.body).toEqual({
      success: false,
      message: 'Unknown field: theme',
      code: 'common.invalid',
    });
    expect(await profileOf(me)).toBeNull();
  });

  it("should answer 403 for another account's uuid and 401 without a session", async () => {
    const me = await registerAccount(t);
    const other = await registerAccount(t);
    await t
      .http()
      .put(`/api/auth/profile/${other.uuid}/locale`)
      .set('Authorization', `Bearer ${me.token}`)
      .send({ locale: 'ru' })
      .expect(403);
    await t.http().put(`/api/auth/profile/${other.uuid}/locale`).send({ locale: 'ru' }).expect(401);
    expect(await profileOf(other)).toBeNull();
  });
});

describe('profile', () => {
  it("should return the session's own profile", async () => {
    const account = await registerAccount(t, { userType: 'node' });
    const res = await t
      .http()
      .get(`/api/auth/profile/${account.uuid}?userType=node`)
      .set('Authorization', `Bearer ${account.token}`)
      .expect(200);
    expect(res.body).toMatchObject({
      success: true,
      user: {
        uuid: account.uuid,
        email: account.email,
        userType: 'node',
        name: account.email.split('@')[0],
        termsAcceptedAt: null,
      },
    });
  });

  it("should answer 403 for another account's uuid", async () => {
    const me = await registerAccount(t);
    const other = await registerAccount(t);
    const res = await t
      .http()
      .get(`/api/auth/profile/${other.uuid}`)
      .set('Authorization', `Bearer ${me.token}`)
      .expect(403);
    expect(res.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.accessDenied,
      code: 'auth.access_denied',
    });
  });

  it('should answer 403 when the userType is not the session account type', async () => {
    const me = await registerAccount(t, { userType: 'client' });
    await t
      .http()
      .get(`/api/auth/profile/${me.uuid}?userType=node`)
      .set('Authorization', `Bearer ${me.token}`)
      .expect(403);
  });

  it('should answer 400 for an unknown userType and 401 without a session', async () => {
    const me = await registerAccount(t);
    const bad = await t
      .http()
      .get(`/api/auth/profile/${me.uuid}?userType=admin`)
      .set('Authorization', `Bearer ${me.token}`)
      .expect(400);
    expect(bad.body.message).toBe('userType must be "client" or "node"');
    const res = await t.http().get(`/api/auth/profile/${me.uuid}`).expect(401);
    expect(res.body).toEqual({
      success: false,
      message: 'User not logged in',
      code: 'auth.not_logged_in',
    });
  });
});

describe('the language of a sign-up code', () => {
  async function mailFor(body: Record<string, unknown>, acceptLanguage?: string) {
    const email = uniqueEmail();
    const since = t.smtp.mails.length;
    const request = t.http().post('/api/auth/generate-code').set('X-Forwarded-For', freshIp());
    if (acceptLanguage) request.set('Accept-Language', acceptLanguage);
    await request.send({ email, userType: 'client', ...body }).expect(200);
    return t.smtp.waitFor(email, { since });
  }

  it("should be the language the portal shows, else the browser's, else English", async () => {
    const ru = await mailFor({ locale: 'ru' }, 'fa-IR');
    expect(ru.subject).toBe('Ваш код подтверждения SCN');
    const zh = await mailFor({}, 'zh-CN,zh;q=0.9,en;q=0.8');
    expect(zh.subject).toBe('你的 SCN 验证码');
    const en = await mailFor({});
    expect(en.subject).toBe('Your SCN verification code');
    expect(en.text).toContain('Your verification code for a new SCN Client account is:');
  });
});

describe('password reset', () => {
  async function forgot(email: string, userType = 'client') {
    return t
      .http()
      .post('/api/auth/forgot-password')
      .set('X-Forwarded-For', freshIp())
      .send({ email, userType })
      .expect(200);
  }

  it('should answer the same for known and unknown e-mails and mail only the known', async () => {
    const account = await registerAccount(t);
    const stranger = uniqueEmail();
    const since = t.smtp.mails.length;
    const known = await forgot(account.email);
    const unknown = await forgot(stranger);
    expect(known.body).toEqual({ success: true, message: AUTH_MESSAGES.forgotPassword });
    expect(unknown.body).toEqual(known.body);
    await t.smtp.waitFor(account.email, { since });
    await new Promise((r) => setTimeout(r, 300));
    expect(t.smtp.mails.slice(since).some((m) => m.to.includes(stranger))).toBe(false);
  });

  it("should mail the reset code in the account's saved language (docs/i18n.md)", async () => {
    const persian = await registerAccount(t);
    await t
      .http()
      .put(`/api/auth/profile/${persian.uuid}/locale`)
      .set('Authorization', `Bearer ${persian.token}`)
      .send({ locale: 'fa' })
      .expect(200);
    const english = await registerAccount(t);
    const since = t.smtp.mails.length;
    // The saved language wins over the browser's.
    await t
      .http()
      .post('/api/auth/forgot-password')
      .set('X-Forwarded-For', freshIp())
      .set('Accept-Language', 'ru-RU')
      .send({ email: persian.email, userType: 'client' })
      .expect(200);
    await forgot(english.email);
    const fa = await t.smtp.waitFor(persian.email, { since });
    const en = await t.smtp.waitFor(english.email, { since });
    expect(fa.subject).toBe('کد بازیابی رمز عبور SCN');
    expect(fa.text).toContain('کد بازیابی شما:');
    expect(fa.text).toMatch(/\b\d{6}\b/);
    expect(en.subject).toBe('Your SCN password reset code');
    expect(en.text).toContain('Your reset code is:');
  });

  it('should reset the password with the mailed code and sign out every session', async () => {
    const account = await registerAccount(t);
    const since = t.smtp.mails.length;
    await forgot(account.email);
    const code = await t.smtp.codeFor(account.email, since);
    const res = await t
      .http()
      .post('/api/auth/reset-password')
      .send({ email: account.email, code, newPassword: 'brand new secret', userType: 'client' })
      .expect(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.passwordReset });
    await t
      .http()
      .get('/api/auth/verify-session')
      .set('Authorization', `Bearer ${account.token}`)
      .expect(401);
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: account.email, password: account.password, userType: 'client' })
      .expect(401);
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: account.email, password: 'brand new secret', userType: 'client' })
      .expect(200);
    // single use
    await t
      .http()
      .post('/api/auth/reset-password')
      .send({ email: account.email, code, newPassword: 'another secret', userType: 'client' })
      .expect(400);
  });

  it('should check the reset fields in the spec order', async () => {
    const email = uniqueEmail();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email, newPassword: 'longenough', userType: 'client' }, AUTH_MESSAGES.resetCodeRequired],
      [
        { email, code: '', newPassword: 'longenough', userType: 'client' },
        AUTH_MESSAGES.resetCodeRequired,
      ],
      [{ email, code: '123456', userType: 'client' }, AUTH_MESSAGES.newPasswordRequired],
      [
        { email, code: '123456', newPassword: 'short', userType: 'client' },
        AUTH_MESSAGES.passwordTooShort,
      ],
      [
        { email, code: '12345', newPassword: 'longenough', userType: 'client' },
        AUTH_MESSAGES.codeFormat,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await t.http().post('/api/auth/reset-password').send(body).expect(400);
      expect(res.body).toMatchObject({ success: false, message, code: 'common.invalid' });
    }
  });

  it('should refuse a wrong reset code and keep the old password', async () => {
    const account = await registerAccount(t);
    const since = t.smtp.mails.length;
    await forgot(account.email);
    const code = await t.smtp.codeFor(account.email, since);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await t
      .http()
      .post('/api/auth/reset-password')
      .send({
        email: account.email,
        code: wrong,
        newPassword: 'brand new secret',
        userType: 'client',
      })
      .expect(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.invalidResetCode);
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: account.email, password: account.password, userType: 'client' })
      .expect(200);
  });

  it('should refuse a reset for an account that does not exist', async () => {
    const res = await t
      .http()
      .post('/api/auth/reset-password')
      .send({
        email: uniqueEmail(),
        code: '123456',
        newPassword: 'brand new secret',
        userType: 'client',
      })
      .expect(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.invalidResetCode);
  });

  it('should let reset codes run out alike for known and unknown e-mails', async () => {
    const account = await registerAccount(t);
    const stranger = uniqueEmail();
    for (const email of [account.email, stranger]) {
      const since = t.smtp.mails.length;
      await forgot(email);
      if (email === account.email) await t.smtp.waitFor(email, { since });
      // The code of the unknown e-mail is stored after the answer, as the known one's is.
      const deadline = Date.now() + 5000;
      while ((await count('verification_codes', 'email = $1', [email])) === 0) {
        if (Date.now() > deadline) throw new Error(`no reset code stored for ${email}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const reset = () =>
        t
          .http()
          .post('/api/auth/reset-password')
          .set('X-Forwarded-For', freshIp())
          .send({ email, code: '000000', newPassword: 'longenough', userType: 'client' });
      for (let i = 0; i < 5; i += 1) {
        const res = await reset();
        expect([res.status, res.body.message]).toEqual([400, AUTH_MESSAGES.invalidResetCode]);
      }
      const sixth = await reset();
      expect([sixth.status, sixth.body.message]).toEqual([429, AUTH_MESSAGES.tooManyCodeAttempts]);
    }
  });

  it('should rate-limit forgot-password per e-mail from anywhere at 10', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 10; i += 1) await forgot(email);
    await t
      .http()
      .post('/api/auth/forgot-password')
      .set('X-Forwarded-For', freshIp())
      .send({ email, userType: 'client' })
      .expect(429);
  });

  it('should rate-limit reset-password per e-mail and address at 10', async () => {
    const email = uniqueEmail();
    const ip = freshIp();
    const reset = (from: string) =>
      t
        .http()
        .post('/api/auth/reset-password')
        .set('X-Forwarded-For', from)
        .send({ email, code: '123456', newPassword: 'longenough', userType: 'client' });
    for (let i = 0; i < 10; i += 1) await reset(ip).expect(400);
    await reset(ip).expect(429);
    await reset(freshIp()).expect(400);
  });
});

describe('terms acceptance', () => {
  const record = (overrides: Record<string, unknown> = {}) => ({
    userType: 'client',
    acceptedTerms: true,
    acceptedPrivacy: true,
    timestamp: new Date().toISOString(),
    ipAddress: '6.6.6.6',
    userAgent: 'jest',
    browserInfo: { browser: 'Chrome', os: 'Linux', screenResolution: '1280x800' },
    location: {
      city: 'Unknown',
      region: 'Unknown',
      country: 'Unknown',
      coords: { lat: null, lng: null },
    },
    termsVersion: '1.0',
    privacyVersion: '1.0',
    ...overrides,
  });

  it('should record the acceptance with the IP of the request, not of the body', async () => {
    const account = await registerAccount(t);
    const res = await t
      .http()
      .post('/api/auth/terms/accept')
      .set('Authorization', `Bearer ${account.token}`)
      .set('X-Forwarded-For', '203.0.113.7')
      .send(record({ uuid: account.uuid, email: account.email, name: 'x' }))
      .expect(201);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.termsRecorded });
    const [row] = await t.db.query<{ ip_address: string; terms_version: string }>(
      'SELECT ip_address, terms_version FROM terms_acceptances WHERE account_uuid = $1',
      [account.uuid],
    );
    expect(row).toEqual({ ip_address: '203.0.113.7', terms_version: '1.0' });
    const status = await t
      .http()
      .get('/api/terms/status')
      .set('Authorization', `Bearer ${account.token}`)
      .expect(200);
    expect(status.body).toMatchObject({
      success: true,
      accepted: true,
      termsVersion: '1.0',
      currentTermsVersion: '1.0',
    });
    const profile = await t
      .http()
      .get(`/api/auth/profile/${account.uuid}`)
      .set('Authorization', `Bearer ${account.token}`)
      .expect(200);
    expect(profile.body.user.termsAcceptedAt).not.toBeNull();
  });

  it('should refuse unticked boxes, old versions, other accounts and missing sessions', async () => {
    const account = await registerAccount(t);
    const other = await registerAccount(t);
    const auth = { Authorization: `Bearer ${account.token}` };
    const unticked = await t
      .http()
      .post('/api/auth/terms/accept')
      .set(auth)
      .send(record({ acceptedPrivacy: false }))
      .expect(400);
    expect(unticked.body.message).toBe(AUTH_MESSAGES.termsMustBeAccepted);
    const old = await t
      .http()
      .post('/api/auth/terms/accept')
      .set(auth)
      .send(record({ termsVersion: '0.9' }))
      .expect(400);
    expect(old.body.message).toBe(AUTH_MESSAGES.termsVersionMismatch);
    await t
      .http()
      .post('/api/auth/terms/accept')
      .set(auth)
      .send(record({ uuid: other.uuid }))
      .expect(403);
    await t
      .http()
      .post('/api/auth/terms/accept')
      .set(auth)
      .send(record({ userType: 'node' }))
      .expect(403);
    await t.http().post('/api/auth/terms/accept').send(record()).expect(401);
    await t.http().get('/api/terms/status').expect(401);
    expect(await count('terms_acceptances', 'account_uuid = $1', [account.uuid])).toBe(0);
    const status = await t.http().get('/api/terms/status').set(auth).expect(200);
    expect(status.body).toMatchObject({ accepted: false, acceptedAt: null });
  });
});

describe('bad input', () => {
  const endpoints: Array<[string, Record<string, unknown>]> = [
    ['/api/auth/generate-code', { email: 'a@b.co', userType: 'client' }],
    [
      '/api/auth/register',
      { email: 'a@b.co', password: 'longenough', userType: 'client', code: '123456' },
    ],
    ['/api/auth/login', { email: 'a@b.co', password: 'longenough', userType: 'client' }],
    ['/api/auth/forgot-password', { email: 'a@b.co', userType: 'client' }],
    [
      '/api/auth/reset-password',
      { email: 'a@b.co', code: '123456', newPassword: 'longenough', userType: 'client' },
    ],
    ['/api/contact', { email: 'a@b.co', subject: 'Hi', message: 'Hello' }],
  ];

  it.each(endpoints)('should reject unknown fields on %s', async (path, body) => {
    const res = await t
      .http()
      .post(path)
      .send({ ...body, isAdmin: true })
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      message: 'Unknown field: isAdmin',
      code: 'common.invalid',
    });
  });

  it.each(endpoints)('should reject a malformed e-mail on %s', async (path, body) => {
    const res = await t
      .http()
      .post(path)
      .send({ ...body, email: 'not-an-email' })
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.emailInvalid,
      code: 'common.invalid',
      field: 'email',
    });
  });

  it.each(endpoints)('should reject a mistyped e-mail on %s', async (path, body) => {
    const res = await t
      .http()
      .post(path)
      .send({ ...body, email: 12345 })
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      message: 'email must be a string',
      code: 'common.invalid',
      field: 'email',
    });
  });

  it.each(endpoints)('should reject a body over 100 kB on %s with 413', async (path, body) => {
    const res = await t
      .http()
      .post(path)
      .send({ ...body, padding: 'x'.repeat(101 * 1024) })
      .expect(413);
    expect(res.body).toEqual({
      success: false,
      message: 'Request body too large (limit 100 kB)',
      code: 'common.too_large',
    });
  });

  it.each(endpoints)('should reject malformed JSON and a non-object body on %s', async (path) => {
    const malformed = await t
      .http()
      .post(path)
      .set('Content-Type', 'application/json')
      .send('{"email":')
      .expect(400);
    expect(malformed.body).toEqual({
      success: false,
      message: 'Malformed JSON in request body',
      code: 'common.invalid',
    });
    const array = await t.http().post(path).send([1, 2]).expect(400);
    expect(array.body).toEqual({
      success: false,
      message: 'Request body must be a JSON object',
      code: 'common.invalid',
    });
    const none = await t.http().post(path).expect(400);
    expect(none.body.success).toBe(false);
    // PostgreSQL cannot store U+0000: refused before any handler runs.
    const nul = await t
      .http()
      .post(path)
      .set('Content-Type', 'application/json')
      .send('{"email":"a\\u0000@b.co","nested":{"text":"x"}}')
      .expect(400);
    expect(nul.body).toEqual({
      success: false,
      message: 'Text in the request body must not contain NUL characters',
      code: 'common.invalid',
    });
  });

  it('should give the spec messages for missing fields', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/auth/login', { userType: 'client' }, AUTH_MESSAGES.emailAndPasswordRequired],
      [
        '/api/auth/login',
        { email: 'a@b.co', userType: 'client' },
        AUTH_MESSAGES.emailAndPasswordRequired,
      ],
      [
        '/api/auth/login',
        { email: '', password: 'x', userType: 'client' },
        AUTH_MESSAGES.emailAndPasswordRequired,
      ],
      ['/api/auth/login', { email: 'a@b.co', password: 'x' }, 'userType is required'],
      [
        '/api/auth/login',
        { email: 'a@b.co', password: 'x', userType: 'admin' },
        'userType must be "client" or "node"',
      ],
      [
        '/api/auth/register',
        { email: 'a@b.co', userType: 'client', code: '123456' },
        AUTH_MESSAGES.emailAndPasswordRequired,
      ],
      [
        '/api/auth/register',
        { email: 'a@b.co', password: 'longenough', userType: 'client' },
        AUTH_MESSAGES.codeRequired,
      ],
      [
        '/api/auth/register',
        { email: 'a@b.co', password: 'longenough', userType: 'client', code: 123456 },
        'code must be a string',
      ],
      [
        '/api/auth/register',
        { email: 'a@b.co', password: 'longenough', userType: 'client', code: '12ab56' },
        AUTH_MESSAGES.codeFormat,
      ],
      [
        '/api/auth/register',
        { email: 'a@b.co', password: 'short', userType: 'client', code: '123456' },
        AUTH_MESSAGES.passwordTooShort,
      ],
      ['/api/auth/generate-code', { userType: 'client' }, AUTH_MESSAGES.emailRequired],
      ['/api/auth/forgot-password', { email: '', userType: 'client' }, AUTH_MESSAGES.emailRequired],
      ['/api/contact', { email: 'a@b.co', message: 'Hello' }, 'Subject is required'],
      ['/api/contact', { email: 'a@b.co', subject: '  ', message: 'Hello' }, 'Subject is required'],
      ['/api/contact', { email: 'a@b.co', subject: 'Hi' }, 'Message is required'],
    ];
    for (const [path, body, message] of cases) {
      const res = await t.http().post(path).set('X-Forwarded-For', freshIp()).send(body);
      expect({ path, status: res.status, body: res.body }).toMatchObject({
        path,
        status: 400,
        body: { success: false, message, code: 'common.invalid' },
      });
    }
    expect(await count('accounts', 'email = $1', ['a@b.co'])).toBe(0);
    expect(await count('verification_codes', 'email = $1', ['a@b.co'])).toBe(0);
    expect(await count('contact_messages', 'email = $1', ['a@b.co'])).toBe(0);
  });
});
