import { PassThrough } from 'node:stream';
import { registerAccount } from '../support/accounts';
import { freshIp, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let logs = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  t = await startTestApp({ LOG_LEVEL: 'trace' }, { logStream: stream });
});
afterAll(() => t.close());

describe('structured logs', () => {
  it('should never contain passwords, codes or session tokens', async () => {
    const password = 'Sup3r-Secret-Passphrase';
    const account = await registerAccount(t, { password });
    const registrationCode = /\b(\d{6})\b/.exec(t.smtp.mails.at(-1)?.text ?? '')?.[1];
    await t
      .http()
      .post('/api/auth/login')
      .set('X-Forwarded-For', freshIp())
      .send({ email: account.email, password, userType: 'client' })
      .expect(200);
    await t
      .http()
      .get('/api/auth/verify-session')
      .set('Authorization', `Bearer ${account.token}`)
      .expect(200);
    await t.http().get('/api/auth/verify-session').set('Cookie', account.cookie).expect(200);
    const since = t.smtp.mails.length;
    await t
      .http()
      .post('/api/auth/forgot-password')
      .send({ email: account.email, userType: 'client' })
      .expect(200);
    const resetCode = await t.smtp.codeFor(account.email, since);
    await t
      .http()
      .post('/api/auth/reset-password')
      .send({
        email: account.email,
        code: resetCode,
        newPassword: 'An0ther-Secret-Phrase',
        userType: 'client',
      })
      .expect(200);
    await new Promise((r) => setTimeout(r, 200));

    expect(logs).toContain('/api/auth/login'); // the requests were logged at all
    for (const secret of [
      password,
      'An0ther-Secret-Phrase',
      account.token,
      registrationCode,
      resetCode,
    ]) {
      expect(secret).toBeTruthy();
      expect(logs).not.toContain(secret as string);
    }
  });
});
