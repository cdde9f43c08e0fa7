import { PassThrough } from 'node:stream';
import { Client } from 'pg';
import { registerAccount } from '../support/accounts';
import { freshIp, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let logs = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  t = await startTestApp({ LOG_LEVEL: 'trace', MARKET_PAGE_CACHE_MS: '0' }, { logStream: stream });
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

interface LogLine {
  level: number;
  msg: string;
  req?: { path: string };
  err?: { stack?: string };
}

/** The lines logged at warn or above since `from` (an offset in `logs`). */
function problemsSince(from: number): LogLine[] {
  return logs
    .slice(from)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.level >= 40);
}

describe('log levels of failures', () => {
  it('should log an expected 503 once, at warn, without a stack', async () => {
    const from = logs.length;
    // Deposits are off in this app (no chain configured): 503 "Failed to initialize payment system".
    await t.http().get('/api/solana/config').expect(503);
    await new Promise((r) => setTimeout(r, 200));
    expect(problemsSince(from)).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'request unavailable',
        req: expect.objectContaining({ path: '/api/solana/config' }),
        reason: 'Failed to initialize payment system',
      }),
    ]);
    expect(logs.slice(from)).not.toContain('stack');
  });

  it('should log an unexpected error at error, with its stack', async () => {
    const sql = new Client({ connectionString: t.db.url });
    await sql.connect();
    await sql.query('ALTER TABLE market_counts RENAME TO market_counts_away');
    const from = logs.length;
    try {
      await t.http().get('/data/stats').expect(500);
    } finally {
      await sql.query('ALTER TABLE market_counts_away RENAME TO market_counts');
      await sql.end();
    }
    await new Promise((r) => setTimeout(r, 200));
    const problems = problemsSince(from);
    expect(problems.map((line) => [line.level, line.msg])).toEqual([
      [50, 'Unhandled error'],
      [50, 'request errored'],
    ]);
    expect(problems[0]!.err?.stack).toContain('market_counts');
    await t.http().get('/data/stats').expect(200);
  });
});
