import { CONTACT_MESSAGES } from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { freshIp, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('POST /api/contact', () => {
  it('should store the message and e-mail it to SUPPORT_EMAIL with the sender as reply-to', async () => {
    const since = t.smtp.mails.length;
    const res = await t
      .http()
      .post('/api/contact')
      .set('X-Forwarded-For', freshIp())
      .send({
        email: 'Visitor@Example.com',
        subject: 'Cannot connect',
        message: 'My v2rayNG says timeout.',
      })
      .expect(201);
    expect(res.body).toEqual({ success: true, message: CONTACT_MESSAGES.sent });
    const mail = await t.smtp.waitFor('support@scn.test', { since });
    expect(mail.subject).toMatch(/^\[SCN support #\d+\] Cannot connect$/);
    expect(mail.replyTo).toContain('visitor@example.com');
    expect(mail.text).toContain('My v2rayNG says timeout.');
    const rows = await t.db.query<{
      email: string;
      mailed_at: Date | null;
      account_uuid: string | null;
    }>(
      `SELECT email, mailed_at, account_uuid FROM contact_messages WHERE subject = 'Cannot connect'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.email).toBe('visitor@example.com');
    expect(rows[0]?.mailed_at).not.toBeNull();
    expect(rows[0]?.account_uuid).toBeNull();
  });

  it('should link the message to the signed-in account', async () => {
    const account = await registerAccount(t);
    await t
      .http()
      .post('/api/contact')
      .set('Authorization', `Bearer ${account.token}`)
      .send({ email: account.email, subject: 'Billing question', message: 'Hello' })
      .expect(201);
    const [row] = await t.db.query<{ account_uuid: string }>(
      `SELECT account_uuid FROM contact_messages WHERE subject = 'Billing question'`,
    );
    expect(row?.account_uuid).toBe(account.uuid);
  });

  it('should refuse over-long fields', async () => {
    const res = await t
      .http()
      .post('/api/contact')
      .send({ email: 'a@b.co', subject: 's'.repeat(201), message: 'x' })
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      message: 'Subject must be at most 200 characters long',
      code: 'common.invalid',
      field: 'subject',
    });
  });

  it('should rate-limit per IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) {
      await t
        .http()
        .post('/api/contact')
        .set('X-Forwarded-For', ip)
        .send({ email: 'a@b.co', subject: `s${i}`, message: 'm' })
        .expect(201);
    }
    await t
      .http()
      .post('/api/contact')
      .set('X-Forwarded-For', ip)
      .send({ email: 'a@b.co', subject: 's', message: 'm' })
      .expect(429);
  });

  it('should keep the message when the mail server is down', async () => {
    const down = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      await down
        .http()
        .post('/api/contact')
        .send({ email: 'a@b.co', subject: 'Kept', message: 'm' })
        .expect(201);
      const rows = await down.db.query<{ mailed_at: Date | null }>(
        `SELECT mailed_at FROM contact_messages WHERE subject = 'Kept'`,
      );
      expect(rows).toEqual([{ mailed_at: null }]);
    } finally {
      await down.close();
    }
  });
});
