import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { UPLOAD_SERVER_MESSAGES } from '@scn/proto';
import { ReliabilitySweepJob } from '../../src/nodes/reliability-sweep.job';
import { registerAccount } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

let now = new Date('2026-11-01T00:00:00Z');
const clock = { now: () => now };
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

const UUID = '0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab';
const link = (port: number) =>
  `vless://${UUID}@127.0.0.1:${port}?security=none&type=tcp#Home%20box`;

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function upload(
  operator: { uuid: string; token: string },
  serverInfo: Record<string, unknown>,
  uuid = operator.uuid,
) {
  return t
    .http()
    .post('/nodes/upload-server')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ uuid, serverInfo });
}

describe('Add New Server (VLESS string)', () => {
  it('should add the server with the link’s address and parameters and reliability 100', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const res = await upload(operator, { vlessString: link(4443) }).expect(201);
    expect(res.body).toMatchObject({
      success: true,
      message: UPLOAD_SERVER_MESSAGES.uploaded,
      server: {
        name: 'Home box',
        source: 'manual',
        host: '127.0.0.1',
        port: 4443,
        reliability: 100,
      },
    });
    expect(res.body.server.vlessString).toBe(
      `vless://${UUID}@127.0.0.1:4443?security=none&type=tcp#Home%20box`,
    );
    const named = await upload(operator, { vlessString: `vless://${UUID}@127.0.0.1:4444` }).expect(
      201,
    );
    expect(named.body.server.name).toBe(UPLOAD_SERVER_MESSAGES.defaultName);
  });

  it('should refuse bad input with the spec messages and write nothing', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const other = await registerAccount(t, { userType: 'node' });
    const client = await registerAccount(t, { userType: 'client' });
    expect((await upload(operator, {}).expect(400)).body.message).toBe(
      UPLOAD_SERVER_MESSAGES.vlessRequired,
    );
    expect((await upload(operator, { vlessString: '  ' }).expect(400)).body.message).toBe(
      UPLOAD_SERVER_MESSAGES.vlessRequired,
    );
    expect((await upload(operator, { vlessString: 'vmess://abc' }).expect(400)).body.message).toBe(
      UPLOAD_SERVER_MESSAGES.vlessInvalid,
    );
    // Malformed escapes and control characters are a bad link, not a server error.
    for (const bad of [`${link(1)}%`, link(1).replace('?', '?sni=a%00b&')]) {
      expect((await upload(operator, { vlessString: bad }).expect(400)).body.message).toBe(
        UPLOAD_SERVER_MESSAGES.vlessInvalid,
      );
    }
    expect(
      (await upload(operator, { vlessString: link(1), reliability: 100 }).expect(400)).body.message,
    ).toBe('Unknown field: serverInfo.reliability');
    await upload(operator, { vlessString: link(1) }, other.uuid).expect(403);
    await upload(client, { vlessString: link(1) }).expect(403);
    const rows = await t.db.query('SELECT id FROM servers WHERE owner_uuid = ANY($1::uuid[])', [
      [operator.uuid, other.uuid, client.uuid],
    ]);
    expect(rows).toEqual([]);
  });
});

describe('probing manually added servers every minute', () => {
  it('should raise reliability while host:port answers and let it decay when it does not', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const { server, port } = await listening();
    const res = await upload(operator, { vlessString: link(port) }).expect(201);
    const id = res.body.server.id as string;
    await t.db.query('UPDATE servers SET reliability_at_report = 50 WHERE id = $1', [id]);
    const job = t.app.get(ReliabilitySweepJob);

    now = new Date(now.getTime() + 60_000);
    await job.runOnce();
    const [up] = await t.db.query<{ reliability_at_report: number; ping_ms: number }>(
      'SELECT reliability_at_report, ping_ms FROM servers WHERE id = $1',
      [id],
    );
    expect(up?.reliability_at_report).toBe(52);
    expect(up?.ping_ms).toBeGreaterThan(0);

    await new Promise<void>((resolve) => server.close(() => resolve()));
    now = new Date(now.getTime() + 2 * 3_600_000);
    await job.runOnce();
    const list = await t
      .http()
      .get(`/nodes/servers/${operator.uuid}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    expect(list.body.servers[0]).toMatchObject({ id, reliability: 42, available: false });
  });
});
