import type { AuthResponse, UserType } from '@scn/proto';
import { freshIp, type TestApp } from './test-app';

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** Signs up through the real endpoints: code by SMTP, then register. */
export async function registerAccount(
  t: TestApp,
  options: { email?: string; userType?: UserType; password?: string } = {},
): Promise<AuthResponse & { password: string; cookie: string }> {
  const email = options.email ?? uniqueEmail();
  const userType = options.userType ?? 'client';
  const password = options.password ?? 'correct horse battery';
  const ip = freshIp();
  const since = t.smtp.mails.length;
  await t
    .http()
    .post('/api/auth/generate-code')
    .set('X-Forwarded-For', ip)
    .send({ email, userType })
    .expect(200);
  const code = await t.smtp.codeFor(email, since);
  const response = await t
    .http()
    .post('/api/auth/register')
    .set('X-Forwarded-For', ip)
    .send({ email, password, userType, code, captchaToken: null })
    .expect(201);
  const setCookie = response.headers['set-cookie'] as unknown as string[];
  const cookie = (setCookie[0] ?? '').split(';')[0] ?? '';
  return { ...(response.body as AuthResponse), password, cookie };
}
