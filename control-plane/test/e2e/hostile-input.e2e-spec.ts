import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { registerAccount } from '../support/accounts';
import { RawHttpClient } from '../support/fuzz/http';
import { insertServers } from '../support/market-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Hostile input that the built server answered with 500, each refused with a
 * clear 4xx and nothing written. The input fuzz suite (input-fuzz.e2e-spec.ts) looks for more of
 * the kind; these pin down the ones it found.
 */

let t: TestApp;
let client: Awaited<ReturnType<typeof registerAccount>>;
let operator: Awaited<ReturnType<typeof registerAccount>>;
let serverId: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  client = await registerAccount(t);
  operator = await registerAccount(t, { userType: 'node' });
  [serverId] = (await insertServers(
    t.db,
    [{ ownerUuid: operator.uuid, name: 'Before', host: '127.0.0.1' }],
    new Date(),
  )) as [string];
});
afterAll(() => t.close());

describe('a body that is not what its Content-Encoding says', () => {
  const json = '{"email":"nobody@example.com","userType":"client"}';

  it.each(['gzip', 'deflate', 'br', 'GZIP'])(
    'should answer 400 for Content-Encoding %s with a plain JSON body',
    async (encoding) => {
      const res = await t
        .http()
        .post('/api/auth/forgot-password')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send(json)
        .expect(400);
      expect(res.body).toEqual({
        success: false,
        message: 'Request body does not match its Content-Encoding',
        code: 'common.invalid',
      });
    },
  );

  it('should answer 400 on every endpoint, a GET with a body and an unknown path included', async () => {
    for (const [method, path] of [
      ['get', '/data/stats'],
      ['get', '/healthz'],
      ['post', '/api/contact'],
      ['patch', `/nodes/server/${operator.uuid}/${serverId}`],
      ['post', '/no/such/path'],
    ] as const) {
      const res = await t
        .http()
        [method](path)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('{}');
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
    }
  });

  it('should answer 415 for an encoding it does not know', async () => {
    const res = await t
      .http()
      .post('/api/contact')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-bogus')
      .send('{}')
      .expect(415);
    expect(res.body).toEqual({
      success: false,
      message: 'Unsupported request body encoding',
      code: 'common.unsupported_encoding',
    });
  });

  it('should still read a real gzip body, and refuse one that inflates past 100 kB', async () => {
    // Raw bytes: supertest would serialize a Buffer sent as JSON.
    const http = new RawHttpClient((t.app.getHttpServer().address() as AddressInfo).port);
    const gzipped = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    try {
      const ok = await http.send('post', '/api/auth/terms/accept', gzipped, gzipSync('{}'));
      // parsed, then the guard: the body was read
      expect(ok).toEqual({ status: 401, body: expect.stringContaining('User not logged in') });
      const bomb = gzipSync(Buffer.from(`{"x":"${'a'.repeat(2_000_000)}"}`));
      expect(bomb.length).toBeLessThan(10_000);
      expect((await http.send('post', '/api/contact', gzipped, bomb)).status).toBe(413);
    } finally {
      http.close();
    }
  });
});

describe('an out-of-range `before` cursor on the wallet calls', () => {
  it.each([
    ['client', '9223372036854775808'],
    ['client', '9999999999999999999'],
    ['node', '9223372036854775808'],
  ] as const)('should answer 400 on the %s wallet for before=%s', async (kind, before) => {
    const account = kind === 'client' ? client : operator;
    const res = await t
      .http()
      .get(`/wallet/${kind}/${account.uuid}?before=${before}`)
      .set('Authorization', `Bearer ${account.token}`)
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      message: 'before must be a transaction id',
      code: 'common.invalid',
      field: 'before',
    });
  });

  it('should page from the largest bigint', async () => {
    const res = await t
      .http()
      .get(`/wallet/client/${client.uuid}?before=9223372036854775807`)
      .set('Authorization', `Bearer ${client.token}`)
      .expect(200);
    expect(res.body.data.transactions).toEqual([]);
  });
});

describe('a lone UTF-16 surrogate in a JSON string', () => {
  const message = 'Text in the request body must be valid Unicode (no unpaired surrogates)';
  const record = (name: string) =>
    `{"userType":"client","acceptedTerms":true,"acceptedPrivacy":true,"termsVersion":"1.0",` +
    `"privacyVersion":"1.0","name":"${name}","browserInfo":{"browser":"x"}}`;

  it('should refuse the terms record with 400 and record nothing', async () => {
    for (const name of ['\\ud800', 'a\\udfff', '\\udc00\\ud800']) {
      const res = await t
        .http()
        .post('/api/auth/terms/accept')
        .set('Authorization', `Bearer ${client.token}`)
        .set('Content-Type', 'application/json')
        .send(record(name))
        .expect(400);
      expect(res.body).toEqual({ success: false, message, code: 'common.invalid' });
    }
    const rows = await t.db.query('SELECT 1 FROM terms_acceptances WHERE account_uuid = $1', [
      client.uuid,
    ]);
    expect(rows).toEqual([]);
  });

  it('should refuse it in a key as well as in a value', async () => {
    const res = await t
      .http()
      .post('/api/auth/terms/accept')
      .set('Authorization', `Bearer ${client.token}`)
      .set('Content-Type', 'application/json')
      .send('{"browserInfo":{"\\ud800":"x"}}')
      .expect(400);
    expect(res.body).toEqual({ success: false, message, code: 'common.invalid' });
  });

  it('should refuse a server name with one and keep the old name', async () => {
    const res = await t
      .http()
      .patch(`/nodes/server/${operator.uuid}/${serverId}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .set('Content-Type', 'application/json')
      .send('{"name":"Node \\ud83d"}')
      .expect(400);
    expect(res.body).toEqual({ success: false, message, code: 'common.invalid' });
    const [row] = await t.db.query<{ name: string }>('SELECT name FROM servers WHERE id = $1', [
      serverId,
    ]);
    expect(row?.name).toBe('Before');
  });

  it('should take a surrogate pair (an emoji) as the text it is', async () => {
    await t
      .http()
      .patch(`/nodes/server/${operator.uuid}/${serverId}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .set('Content-Type', 'application/json')
      .send('{"name":"Node \\ud83d\\ude80"}')
      .expect(200);
    const [row] = await t.db.query<{ name: string }>('SELECT name FROM servers WHERE id = $1', [
      serverId,
    ]);
    expect(row?.name).toBe('Node 🚀');
  });
});
