import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { io } from 'socket.io-client';
import {
  changeBillingTypeResponseSchema,
  decodeSubscriptionContent,
  parseVlessLink,
  rotateSubscriptionUrlResponseSchema,
  SUBSCRIPTION_MESSAGES,
  subscriptionActionResponseSchema,
  subscriptionCreationResponseSchema,
  subscriptionQrCodesResponseSchema,
  subscriptionsResponseSchema,
} from '@scn/proto';
import { SubscriptionBillingJob } from '../../src/subscriptions/subscription-billing.job';
import { registerAccount } from '../support/accounts';
import {
  depositThroughChain,
  type FundingChain,
  startFundingChain,
} from '../support/chain-deposits';
import { ledgerViolations } from '../support/ledger';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { buy, clientSetOf, platformRevenue, walletBalance } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';

const OPERATOR_EMAIL = 'platform.operator@example.com';
const SSL = 1_000_000n;
const DAY = 86_400_000;
// The launch period ends on 2026-06-30; most tests run after it (paid), one before it (free).
let now = new Date('2026-11-20T12:00:00.000Z');
const clock = { now: () => now };
const logLines: string[] = [];
let t: TestApp;
let funding: FundingChain;
let client: Awaited<ReturnType<typeof registerAccount>>;
let other: Awaited<ReturnType<typeof registerAccount>>;
let node: Awaited<ReturnType<typeof registerAccount>>;
let platform: Awaited<ReturnType<typeof registerAccount>>;
let operatorA: string;
let operatorB: string;

async function servers(
  owner: string,
  count: number,
  extra: Partial<Parameters<typeof insertServers>[1][number]> = {},
): Promise<string[]> {
  return insertServers(
    t.db,
    Array.from({ length: count }, (_, i) => ({
      ownerUuid: owner,
      name: `Node ${i}`,
      tier: 'tier4' as const,
      host: `node-${i}.example.net`,
      port: 8443 + i,
      ...extra,
    })),
    now,
  );
}

/** POST change-type for a client's subscription. */
function changeType(
  owner: { uuid: string; cookie: string },
  id: string,
  body: Record<string, unknown>,
) {
  return t
    .http()
    .post(`/api/clients/subscription/${owner.uuid}/${id}/change-type`)
    .set('Cookie', owner.cookie)
    .send(body);
}

beforeAll(async () => {
  // The chain keeps the test clock too: deposits made after it moves have matching block times.
  funding = await startFundingChain({ now: () => now.getTime() });
  t = await startTestApp(
    {
      ...funding.env,
      PLATFORM_OPERATOR_EMAIL: OPERATOR_EMAIL,
      LAUNCH_PERIOD_ENDS: '2026-06-30',
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'https://scn.example',
    },
    {
      clock,
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      }),
    },
  );
  [client, other, node, platform] = await Promise.all([
    registerAccount(t, { userType: 'client' }),
    registerAccount(t, { userType: 'client' }),
    registerAccount(t, { userType: 'node' }),
    registerAccount(t, { userType: 'node', email: OPERATOR_EMAIL }),
  ]);
  operatorA = await insertAccount(t.db);
  operatorB = await insertAccount(t.db);
});
afterAll(async () => {
  await t.close();
  await funding.stop();
});

describe('POST /api/clients/create-subscription', () => {
  it('should debit the client, reward each operator frozen 60 days and allow the uuid on every node', async () => {
    const [a1, a2] = await servers(operatorA, 2);
    const [b1] = await servers(operatorB, 1);
    await depositThroughChain(t, funding, client, 100);
    const versionsBefore = [];
    for (const id of [a1!, a2!, b1!]) versionsBefore.push(await clientSetOf(t.db, id));

    const response = await buy(t, client, [a1!, b1!, a2!]).expect(200);
    const body = subscriptionCreationResponseSchema.parse(response.body);

    expect(body.message).toBe(SUBSCRIPTION_MESSAGES.created);
    expect(body.serverCount).toBe(3);
    expect(body.serverIds).toEqual([a1, b1, a2]);
    expect(body.chargedMicro).toBe(String(30n * SSL));
    expect(body.balanceMicro).toBe(String(70n * SSL));
    expect(body.paymentId).toEqual(expect.any(String));
    expect(await walletBalance(t.db, client.uuid)).toBe(70n * SSL);
    expect(await walletBalance(t.db, operatorA, 'node_wallet')).toBe(20n * SSL);
    expect(await walletBalance(t.db, operatorB, 'node_wallet')).toBe(10n * SSL);

    // docs/product/constants.md#market-prices-and-limits: operator rewards are frozen 60 days.
    const rewards = await t.db.query<{ frozen_until: Date; amount_micro: string; type: string }>(
      `SELECT e.frozen_until, e.amount_micro::text, t.type FROM ledger_entries e
       JOIN ledger_transactions t ON t.id = e.transaction_id
       JOIN ledger_accounts a ON a.id = e.account_id
       WHERE a.kind = 'node_wallet' AND t.subscription_id = $1`,
      [body.subscriptionId],
    );
    expect(rewards).toHaveLength(2);
    for (const reward of rewards) {
      expect(reward.type).toBe('subscription_reward');
      expect(reward.frozen_until.getTime()).toBe(now.getTime() + 60 * DAY);
    }

    // Every node allows the subscription's own uuid, and its set version moved.
    const uuid = body.subscription.uuid;
    expect(uuid).not.toBe(client.uuid);
    for (const [i, id] of [a1!, a2!, b1!].entries()) {
      const set = await clientSetOf(t.db, id);
      expect(set.uuids).toContain(uuid);
      expect(set.version).toBeGreaterThan(versionsBefore[i]!.version);
    }

    // Connection strings from each node's address and inbound, with the subscription's uuid.
    expect(body.vlessStrings).toHaveLength(3);
    const link = parseVlessLink(body.vlessStrings[1]!)!;
    expect(link).toMatchObject({ uuid, host: 'node-0.example.net', port: 8443 });
    expect(link.params).toMatchObject({
      security: 'reality',
      sni: 'www.example.com',
      fp: 'chrome',
      pbk: 'pbk',
      sid: 'ab',
      flow: 'xtls-rprx-vision',
      type: 'tcp',
    });
    expect(body.vlessString).toBe(body.vlessStrings[0]);
    expect(body.fileName).toBe(`group_${body.subscriptionId}.txt`);
    expect(body.subscription.rawFileUrl).toBe(
      `https://scn.example/api/clients/download-subscription/${client.uuid}/raw_${body.subscriptionId}.txt`,
    );
    expect(body.subscriptionUrl).toMatch(/^https:\/\/scn\.example\/sub\/[A-Za-z0-9_-]{43}$/);

    // QR codes: PNG data URLs, one per server, and the group's (the subscription URL).
    expect(body.groupQrCode).toMatch(/^data:image\/png;base64,/);
    expect(body.serverQrCodes.map((qr) => qr.id)).toEqual([a1, b1, a2]);
    for (const qr of body.serverQrCodes) {
      expect(qr.uuid).toBe(uuid);
      expect(qr.qrTooComplex).toBe(false);
      const png = Buffer.from(qr.qrCode!.split(',')[1]!, 'base64');
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(180);
    }
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should neither wait for an agent report batch nor change the server row it writes', async () => {
    const [id] = await servers(operatorA, 1);
    await depositThroughChain(t, funding, client, 10);
    const versionOf = async () =>
      (
        await t.db.query<{ v: string }>('SELECT xmin::text AS v FROM servers WHERE id = $1', [id])
      )[0]!.v;
    // A report batch in flight: it holds the server row until it commits. (A report that changes
    // what the market shows also holds the listing row, which a purchase then waits for.)
    const batch = new Client({ connectionString: t.db.url });
    await batch.connect();
    try {
      await batch.query('BEGIN');
      await batch.query(
        'UPDATE servers SET uptime_seconds = uptime_seconds + 60, last_report_at = $2 WHERE id = $1',
        [id, now],
      );
      await buy(t, client, [id!]).timeout(10_000).expect(200);
      await batch.query('COMMIT');
    } finally {
      await batch.end();
    }
    // A purchase moves the client set, not the server row the report path remembers.
    const before = await versionOf();
    const set = await clientSetOf(t.db, id!);
    await depositThroughChain(t, funding, other, 10);
    await buy(t, other, [id!]).expect(200);
    expect(await versionOf()).toBe(before);
    expect((await clientSetOf(t.db, id!)).version).toBe(set.version + 1n);
  });

  it('should answer 402 with the spec message and write nothing when the balance is short', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 15);
    const ids = await servers(operatorA, 2);
    const response = await buy(t, buyer, ids).expect(402);
    expect(response.body).toMatchObject({
      success: false,
      message: 'Insufficient balance. You need 20.00 SSL but have 15.00 SSL.',
      balance: '15.00',
      required: '20.00',
    });
    expect(await walletBalance(t.db, buyer.uuid)).toBe(15n * SSL);
    const rows = await t.db.query(`SELECT 1 FROM subscriptions WHERE owner_uuid = $1`, [
      buyer.uuid,
    ]);
    expect(rows).toHaveLength(0);
    for (const id of ids) expect((await clientSetOf(t.db, id)).uuids).toEqual([]);
  });

  it('should pay the platform and no operator for premium servers', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 20);
    const [premium] = await servers(platform.uuid, 1);
    const [regular] = await servers(operatorB, 1);
    const revenueBefore = await platformRevenue(t.db);
    const platformWalletBefore = await walletBalance(t.db, platform.uuid, 'node_wallet');
    const operatorBefore = await walletBalance(t.db, operatorB, 'node_wallet');

    const body = subscriptionCreationResponseSchema.parse(
      (await buy(t, buyer, [premium!, regular!]).expect(200)).body,
    );
    expect(body.chargedMicro).toBe(String(20n * SSL));
    expect(body.servers.map((s) => s.isAdminServer)).toEqual([true, false]);
    expect(await platformRevenue(t.db)).toBe(revenueBefore + 10n * SSL);
    expect(await walletBalance(t.db, platform.uuid, 'node_wallet')).toBe(platformWalletBefore);
    expect(await walletBalance(t.db, operatorB, 'node_wallet')).toBe(operatorBefore + 10n * SSL);
  });

  it('should be free and move no money during the launch period', async () => {
    const saved = now;
    now = new Date('2026-06-30T20:00:00.000Z');
    try {
      const buyer = await registerAccount(t, { userType: 'client' });
      const ids = await servers(operatorA, 2);
      const operatorBefore = await walletBalance(t.db, operatorA, 'node_wallet');
      const body = subscriptionCreationResponseSchema.parse(
        (await buy(t, buyer, ids).expect(200)).body,
      );
      expect(body.chargedMicro).toBe('0');
      expect(body.paymentId).toBeNull();
      expect(body.details.billingAmount).toBe(0);
      expect(await walletBalance(t.db, operatorA, 'node_wallet')).toBe(operatorBefore);
      const moved = await t.db.query(
        `SELECT 1 FROM ledger_transactions WHERE subscription_id = $1`,
        [body.subscriptionId],
      );
      expect(moved).toHaveLength(0);
      for (const id of ids)
        expect((await clientSetOf(t.db, id)).uuids).toContain(body.subscription.uuid);
    } finally {
      now = saved;
    }
  });

  it('should price hourly billing at 10 SSL per server per 100-hour block', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 30);
    const ids = await servers(operatorA, 2);
    const body = subscriptionCreationResponseSchema.parse(
      (await buy(t, buyer, ids, { billingCycle: 'hourly' }).expect(200)).body,
    );
    expect(body.chargedMicro).toBe(String(20n * SSL));
    expect(body.details).toMatchObject({
      billingCycle: 'hourly',
      billingAmount: 20,
      hourlyPrice: 0.2,
      remainingHours: 100,
      hoursRemaining: 100,
    });
    expect(new Date(body.expirationDate).getTime()).toBe(now.getTime() + 100 * 3_600_000);
  });

  it('should refuse accounts that are not clients, and a uuid that is not the session’s', async () => {
    const ids = await servers(operatorA, 1);
    await t
      .http()
      .post('/api/clients/create-subscription')
      .send({ uuid: client.uuid, serverIds: ids })
      .expect(401);
    const asNode = await t
      .http()
      .post('/api/clients/create-subscription')
      .set('Cookie', node.cookie)
      .send({ uuid: node.uuid, serverIds: ids })
      .expect(403);
    expect(asNode.body.message).toBe(SUBSCRIPTION_MESSAGES.clientsOnly);
    const asOther = await buy(t, { uuid: other.uuid, cookie: client.cookie }, ids).expect(403);
    expect(asOther.body.message).toBe(SUBSCRIPTION_MESSAGES.uuidMismatch);
  });

  it.each([
    [{}, SUBSCRIPTION_MESSAGES.serverIdsRequired],
    [{ serverIds: [] }, SUBSCRIPTION_MESSAGES.serverIdsRequired],
    [{ serverIds: 'abc' }, SUBSCRIPTION_MESSAGES.serverIdsRequired],
    [{ serverIds: ['not-a-server'] }, SUBSCRIPTION_MESSAGES.serverIdInvalid],
    [{ serverIds: [7] }, SUBSCRIPTION_MESSAGES.serverIdInvalid],
    [
      {
        serverIds: Array.from(
          { length: 51 },
          (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        ),
      },
      SUBSCRIPTION_MESSAGES.serverIdsTooMany,
    ],
    [
      {
        serverIds: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001'],
      },
      SUBSCRIPTION_MESSAGES.serverIdsDuplicate,
    ],
    [
      { serverIds: ['00000000-0000-4000-8000-000000000001'], billingCycle: 'weekly' },
      SUBSCRIPTION_MESSAGES.billingCycleInvalid,
    ],
    [{ serverIds: ['00000000-0000-4000-8000-000000000001'], amount: 0 }, 'Unknown field: amount'],
  ])('should answer 400 for %j', async (fields, message) => {
    const response = await t
      .http()
      .post('/api/clients/create-subscription')
      .set('Cookie', client.cookie)
      .send({ uuid: client.uuid, ...fields })
      .expect(400);
    expect(response.body).toMatchObject({ success: false, message, code: 'common.invalid' });
  });

  it('should answer 404 for an unknown server and 409 for one that is not available or full', async () => {
    await depositThroughChain(t, funding, client, 10);
    const missing = '00000000-0000-4000-8000-0000000000ff';
    expect((await buy(t, client, [missing]).expect(404)).body.message).toBe(
      SUBSCRIPTION_MESSAGES.serverNotFound(missing),
    );
    const [stale] = await servers(operatorA, 1, {
      name: 'Stale',
      lastReportAt: new Date(now.getTime() - 2 * 3_600_000),
    });
    const [hidden] = await servers(operatorA, 1, { name: 'Hidden', reliabilityAtReport: 80 });
    const [banned] = await servers(operatorA, 1, { name: 'Banned', bannedAt: now });
    const [down] = await servers(operatorA, 1, { name: 'Down', coreState: 'failed' });
    const [noAddress] = await servers(operatorA, 1, { name: 'Nowhere', host: null, port: null });
    for (const [id, name] of [
      [stale, 'Stale'],
      [hidden, 'Hidden'],
      [banned, 'Banned'],
      [down, 'Down'],
      [noAddress, 'Nowhere'],
    ] as const) {
      const response = await buy(t, client, [id!]).expect(409);
      expect(response.body.message).toBe(SUBSCRIPTION_MESSAGES.serverUnavailable(name));
    }
    const [full] = await servers(operatorA, 1, { name: 'Tiny', tier: 'tier1' });
    await t.db.query(
      `INSERT INTO server_clients (server_id, client_uuid) SELECT $1, gen_random_uuid() FROM generate_series(1, 10)`,
      [full],
    );
    const response = await buy(t, client, [full!]).expect(409);
    expect(response.body.message).toBe(SUBSCRIPTION_MESSAGES.serverFull('Tiny'));
  });

  it('should leave the balance untouched when the subscription cannot be written', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 10);
    const [id] = await servers(operatorA, 1);
    const operatorBefore = await walletBalance(t.db, operatorA, 'node_wallet');
    const transactionsBefore = await t.db.query(
      `SELECT count(*)::int AS n FROM ledger_transactions`,
    );
    await t.db
      .query(`CREATE FUNCTION fail_subscription_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated crash between debit and subscription'; END $$`);
    await t.db.query(
      `CREATE TRIGGER fail_subscription_insert BEFORE INSERT ON subscriptions FOR EACH ROW EXECUTE FUNCTION fail_subscription_insert()`,
    );
    try {
      const response = await buy(t, buyer, [id!]).expect(500);
      expect(response.body).toEqual({
        success: false,
        message: 'Internal server error',
        code: 'common.internal',
      });
    } finally {
      await t.db.query(`DROP TRIGGER fail_subscription_insert ON subscriptions`);
      await t.db.query(`DROP FUNCTION fail_subscription_insert()`);
    }
    expect(await walletBalance(t.db, buyer.uuid)).toBe(10n * SSL);
    expect(await walletBalance(t.db, operatorA, 'node_wallet')).toBe(operatorBefore);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM ledger_transactions`)).toEqual(
      transactionsBefore,
    );
    expect((await clientSetOf(t.db, id!)).uuids).toEqual([]);
    // And the same purchase goes through once the database accepts it.
    await buy(t, buyer, [id!]).expect(200);
    expect(await walletBalance(t.db, buyer.uuid)).toBe(0n);
  });
});

describe('subscription lists, files and the subscription URL', () => {
  let created: ReturnType<typeof subscriptionCreationResponseSchema.parse>;
  let ids: string[];

  beforeAll(async () => {
    ids = await servers(operatorB, 2);
    await depositThroughChain(t, funding, client, 20);
    created = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, ids).expect(200)).body,
    );
  });

  it('should list the subscription with the spec 02 §3 fields', async () => {
    const response = await t
      .http()
      .get(`/api/clients/subscriptions/${client.uuid}`)
      .set('Cookie', client.cookie)
      .expect(200);
    const { subscriptions } = subscriptionsResponseSchema.parse(response.body);
    const listed = subscriptions.find((s) => s.id === created.subscriptionId)!;
    expect(listed).toMatchObject({
      uuid: created.subscription.uuid,
      name: 'Subscription (2 servers)',
      status: 'active',
      billingCycle: 'monthly',
      billingAmount: 20,
      billingAmountMicro: String(20n * SSL),
      serverCount: 2,
      serverIds: ids,
      vlessLink: created.vlessString,
      connectionString: created.vlessString,
      vlessConnectionString: created.vlessString,
      fileName: created.fileName,
      subscriptionUrl: created.subscriptionUrl,
      autoRenew: true,
      pausedAt: null,
      remainingHours: 720,
      pauseAllowance: {
        pausesLeft: 1,
        pausesPerWindow: 1,
        maxPauseHours: 168,
        nextPauseAvailableAt: null,
      },
    });
    expect(listed.servers.map((s) => s.vlessString)).toEqual(created.vlessStrings);
    const paused = await t
      .http()
      .get(`/api/clients/paused-subscriptions/${client.uuid}`)
      .set('Cookie', client.cookie)
      .expect(200);
    expect(paused.body.subscriptions.map((s: { id: string }) => s.id)).not.toContain(
      created.subscriptionId,
    );
  });

  it('should answer 403 for another client’s uuid and 404 for another client’s subscription', async () => {
    await t.http().get(`/api/clients/subscriptions/${client.uuid}`).expect(401);
    await t
      .http()
      .get(`/api/clients/subscriptions/${client.uuid}`)
      .set('Cookie', other.cookie)
      .expect(403);
    const id = created.subscriptionId;
    for (const path of ['pause', 'activate', 'qr-codes', 'rotate-url']) {
      const method = path === 'qr-codes' ? 'get' : 'post';
      await t
        .http()
        [method](`/api/clients/subscription/${client.uuid}/${id}/${path}`)
        .set('Cookie', other.cookie)
        .expect(403);
      await t
        .http()
        [method](`/api/clients/subscription/${other.uuid}/${id}/${path}`)
        .set('Cookie', other.cookie)
        .expect(404);
    }
    await t
      .http()
      .delete(`/api/clients/subscription/${other.uuid}/${id}`)
      .set('Cookie', other.cookie)
      .expect(404);
    await t
      .http()
      .delete(`/api/clients/subscription/${other.uuid}/not-an-id`)
      .set('Cookie', other.cookie)
      .expect(404);
    await t
      .http()
      .get(`/api/clients/download-subscription/${other.uuid}/${created.fileName}`)
      .set('Cookie', other.cookie)
      .expect(404);
    await t
      .http()
      .get(`/clients/download-subscription/${id}/${created.fileName}`)
      .set('Cookie', other.cookie)
      .expect(404);
    await changeType(other, id, { newBillingCycle: 'hourly' }).expect(404);
  });

  it('should serve the group file (base64) and the raw file (one link per line)', async () => {
    const group = await t
      .http()
      .get(`/api/clients/download-subscription/${client.uuid}/${created.fileName}`)
      .set('Cookie', client.cookie)
      .expect(200);
    expect(group.headers['content-type']).toMatch(/^text\/plain/);
    expect(Buffer.from(group.text, 'base64').toString()).toBe(created.vlessStrings.join('\n'));
    expect(decodeSubscriptionContent(group.text)).toEqual(created.vlessStrings);
    const raw = await t
      .http()
      .get(`/clients/download-subscription/${created.subscriptionId}/${created.rawFileName}`)
      .set('Cookie', client.cookie)
      .expect(200);
    expect(raw.text).toBe(`${created.vlessStrings.join('\n')}\n`);
    await t
      .http()
      .get(`/api/clients/download-subscription/${client.uuid}/secrets.txt`)
      .set('Cookie', client.cookie)
      .expect(404);
  });

  it('should answer the subscription URL without a session, rotate it and never log its secret', async () => {
    const path = new URL(created.subscriptionUrl).pathname;
    const secret = path.split('/')[2]!;
    const response = await t.http().get(path).expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['profile-update-interval']).toBe('12');
    expect(response.headers['subscription-userinfo']).toMatch(
      /^upload=0; download=0; total=0; expire=\d+$/,
    );
    expect(decodeSubscriptionContent(response.text)).toEqual(created.vlessStrings);
    expect(logLines.join('')).not.toContain(secret);
    expect(logLines.join('')).toContain('/sub/[redacted]');

    const rotated = rotateSubscriptionUrlResponseSchema.parse(
      (
        await t
          .http()
          .post(`/api/clients/subscription/${client.uuid}/${created.subscriptionId}/rotate-url`)
          .set('Cookie', client.cookie)
          .expect(200)
      ).body,
    );
    await t.http().get(path).expect(404);
    await t.http().get(new URL(rotated.subscriptionUrl).pathname).expect(200);
    await t.http().get('/sub/short').expect(404);
    await t
      .http()
      .get(`/sub/${'A'.repeat(43)}`)
      .expect(404);
    created = { ...created, subscriptionUrl: rotated.subscriptionUrl };
  });

  it('should hand out the QR codes of a subscription', async () => {
    const response = await t
      .http()
      .get(`/api/clients/subscription/${client.uuid}/${created.subscriptionId}/qr-codes`)
      .set('Cookie', client.cookie)
      .expect(200);
    const body = subscriptionQrCodesResponseSchema.parse(response.body);
    expect(body.groupQrCode).toMatch(/^data:image\/png;base64,/);
    expect(body.serverQrCodes.map((qr) => qr.vlessString)).toEqual(created.vlessStrings);
  });
});

describe('pause, activate, delete and change-type', () => {
  async function create(cycle: 'monthly' | 'hourly', count = 2) {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 10 * count);
    const ids = await servers(operatorA, count);
    const body = subscriptionCreationResponseSchema.parse(
      (await buy(t, buyer, ids, { billingCycle: cycle }).expect(200)).body,
    );
    return { buyer, ids, body, id: body.subscriptionId, uuid: body.subscription.uuid };
  }
  const call = (
    buyer: { uuid: string; cookie: string },
    id: string,
    action: 'pause' | 'activate',
  ) =>
    t
      .http()
      .post(`/api/clients/subscription/${buyer.uuid}/${id}/${action}`)
      .set('Cookie', buyer.cookie);

  it('should take the uuid off the nodes on pause and put it back on activate, for free', async () => {
    const { buyer, ids, id, uuid } = await create('monthly');
    const before = await clientSetOf(t.db, ids[0]!);
    const pausedAt = now;
    const paused = subscriptionActionResponseSchema.parse(
      (await call(buyer, id, 'pause').expect(200)).body,
    );
    expect(paused.subscription).toMatchObject({
      status: 'paused',
      pauseReason: 'user',
      activationPrice: 0,
    });
    expect(paused.subscription.pauseEndsAt).toBe(new Date(now.getTime() + 7 * DAY).toISOString());
    const afterPause = await clientSetOf(t.db, ids[0]!);
    expect(afterPause.uuids).not.toContain(uuid);
    expect(afterPause.version).toBeGreaterThan(before.version);
    // The paused subscription keeps its place: capacity (and the market's free slots) count it.
    const places = await t.db.query<{ enabled: boolean }>(
      `SELECT enabled FROM server_clients WHERE server_id = $1 AND client_uuid = $2`,
      [ids[0], uuid],
    );
    expect(places).toEqual([{ enabled: false }]);
    const [listing] = await t.db.query<{ allowed_clients: number }>(
      `SELECT allowed_clients FROM market_listings WHERE server_id = $1`,
      [ids[0]],
    );
    expect(listing?.allowed_clients).toBe(before.uuids.length);
    const list = await t
      .http()
      .get(`/api/clients/paused-subscriptions/${buyer.uuid}`)
      .set('Cookie', buyer.cookie)
      .expect(200);
    expect(list.body.subscriptions.map((s: { id: string }) => s.id)).toEqual([id]);

    now = new Date(now.getTime() + 2 * DAY);
    const activated = subscriptionActionResponseSchema.parse(
      (await call(buyer, id, 'activate').expect(200)).body,
    );
    expect(activated.chargedMicro).toBe('0');
    // The paused days do not count: 30 days from purchase, plus the 2 paused.
    expect(activated.subscription.remainingHours).toBe(30 * 24);
    const afterActivate = await clientSetOf(t.db, ids[0]!);
    expect(afterActivate.uuids).toContain(uuid);
    expect(afterActivate.version).toBeGreaterThan(afterPause.version);
    expect(await walletBalance(t.db, buyer.uuid)).toBe(0n);

    // docs/product/constants.md#billing-and-the-economy: one free pause per 6 months for monthly subscriptions; the next is 409.
    const refused = await call(buyer, id, 'pause').expect(409);
    const next = new Date(pausedAt);
    next.setUTCMonth(next.getUTCMonth() + 6);
    expect(refused.body).toMatchObject({
      message: SUBSCRIPTION_MESSAGES.monthlyPauseUsed(next.toISOString()),
      nextPauseAvailableAt: next.toISOString(),
    });
    await call(buyer, id, 'activate').expect(409);
  });

  it('should take the places of an expired subscription again on activate, or refuse a full server (409)', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 20);
    const [tiny] = await servers(operatorA, 1, { name: 'Tiny', tier: 'tier1' });
    const body = subscriptionCreationResponseSchema.parse(
      (await buy(t, buyer, [tiny!]).expect(200)).body,
    );
    const id = body.subscriptionId;
    const uuid = body.subscription.uuid;
    // Expired: its place is given up (the billing job does this at the end of an unpaid period).
    await t.db.query(`UPDATE subscriptions SET status = 'expired' WHERE id = $1`, [id]);
    await t.db.query(`DELETE FROM server_clients WHERE server_id = $1 AND client_uuid = $2`, [
      tiny,
      uuid,
    ]);
    // Meanwhile the tier1 server filled up (10 clients): activate is refused and pays nothing.
    await t.db.query(
      `INSERT INTO server_clients (server_id, client_uuid) SELECT $1, gen_random_uuid() FROM generate_series(1, 10)`,
      [tiny],
    );
    const refused = await call(buyer, id, 'activate').expect(409);
    expect(refused.body.message).toBe(SUBSCRIPTION_MESSAGES.serverFull('Tiny'));
    expect(await walletBalance(t.db, buyer.uuid, 'client_wallet')).toBe(10n * SSL);
    // A place frees: activate pays one period and puts the uuid back on the server.
    await t.db.query(
      `DELETE FROM server_clients WHERE ctid = (SELECT ctid FROM server_clients WHERE server_id = $1 AND client_uuid <> $2 LIMIT 1)`,
      [tiny, uuid],
    );
    await call(buyer, id, 'activate').expect(200);
    expect((await clientSetOf(t.db, tiny!)).uuids).toContain(uuid);
    expect(await walletBalance(t.db, buyer.uuid, 'client_wallet')).toBe(0n);
  });

  it('should allow two hourly pauses a day and end each one after 8 hours by itself', async () => {
    const { buyer, ids, id, uuid } = await create('hourly', 1);
    const startedAt = now;
    await call(buyer, id, 'pause').expect(200);
    now = new Date(now.getTime() + 9 * 3_600_000);
    const settled = await t.app.get(SubscriptionBillingJob).runOnce();
    expect(settled).toMatchObject({ resumed: 1 });
    expect((await clientSetOf(t.db, ids[0]!)).uuids).toContain(uuid);
    const [row] = await t.db.query<{ status: string; expires_at: Date }>(
      `SELECT status, expires_at FROM subscriptions WHERE id = $1`,
      [id],
    );
    // Resumed at the 8-hour limit: 8 hours of pause added to the 100-hour block.
    expect(row).toEqual({
      status: 'active',
      expires_at: new Date(startedAt.getTime() + 108 * 3_600_000),
    });

    await call(buyer, id, 'pause').expect(200);
    await call(buyer, id, 'activate').expect(200);
    const third = await call(buyer, id, 'pause').expect(409);
    expect(third.body.message).toBe(
      SUBSCRIPTION_MESSAGES.hourlyPausesUsed(new Date(startedAt.getTime() + DAY).toISOString()),
    );
    now = new Date(startedAt.getTime() + DAY + 1000);
    await call(buyer, id, 'pause').expect(200);
  });

  it('should delete from either state: the uuid leaves every node and the URL answers 404', async () => {
    const { buyer, ids, id, uuid, body } = await create('monthly');
    await call(buyer, id, 'pause').expect(200);
    const before = await clientSetOf(t.db, ids[1]!);
    await call(buyer, id, 'activate').expect(200);
    const response = await t
      .http()
      .delete(`/api/clients/subscription/${buyer.uuid}/${id}`)
      .set('Cookie', buyer.cookie)
      .expect(200);
    expect(response.body).toEqual({ success: true, message: SUBSCRIPTION_MESSAGES.deleted });
    for (const server of ids) expect((await clientSetOf(t.db, server)).uuids).not.toContain(uuid);
    expect((await clientSetOf(t.db, ids[1]!)).version).toBeGreaterThan(before.version);
    await t.http().get(new URL(body.subscriptionUrl).pathname).expect(404);
    await t
      .http()
      .delete(`/api/clients/subscription/${buyer.uuid}/${id}`)
      .set('Cookie', buyer.cookie)
      .expect(404);
    const lists = await Promise.all(
      ['subscriptions', 'paused-subscriptions'].map((list) =>
        t.http().get(`/api/clients/${list}/${buyer.uuid}`).set('Cookie', buyer.cookie).expect(200),
      ),
    );
    for (const list of lists) expect(list.body.subscriptions).toEqual([]);
  });

  it('should charge 10 SSL per server to change the billing type, without refund', async () => {
    const { buyer, id } = await create('monthly');
    await depositThroughChain(t, funding, buyer, 25);
    const response = await changeType(buyer, id, { newBillingCycle: 'hourly' }).expect(200);
    const body = changeBillingTypeResponseSchema.parse(response.body);
    expect(body).toMatchObject({
      automaticallyPaused: false,
      walletBalance: 5,
      chargedMicro: String(20n * SSL),
      subscription: { billingCycle: 'hourly', remainingHours: 100, status: 'active' },
    });
    const same = await changeType(buyer, id, { newBillingCycle: 'hourly' }).expect(409);
    expect(same.body.message).toBe(SUBSCRIPTION_MESSAGES.sameBillingCycle('hourly'));
    for (const send of [{}, { newBillingCycle: 'yearly' }]) {
      const bad = await changeType(buyer, id, send).expect(400);
      expect(bad.body.message).toBe(
        'newBillingCycle' in send
          ? SUBSCRIPTION_MESSAGES.newBillingCycleInvalid
          : SUBSCRIPTION_MESSAGES.newBillingCycleRequired,
      );
    }
  });

  it('should pause automatically when the change cannot be paid, and activate only with funds (402)', async () => {
    const { buyer, ids, id, uuid } = await create('monthly');
    // The smallest deposit (6 SSL): short of the 20 SSL the change costs.
    await depositThroughChain(t, funding, buyer, 6);
    const response = await changeType(buyer, id, { newBillingCycle: 'hourly' }).expect(200);
    const body = changeBillingTypeResponseSchema.parse(response.body);
    expect(body).toMatchObject({
      automaticallyPaused: true,
      walletBalance: 6,
      availableBalance: 6,
      requiredAmount: 20,
      chargedMicro: '0',
      subscription: {
        status: 'paused',
        pauseReason: 'insufficient_funds',
        billingCycle: 'hourly',
        activationPrice: 20,
      },
    });
    expect((await clientSetOf(t.db, ids[0]!)).uuids).not.toContain(uuid);

    const refused = await call(buyer, id, 'activate').expect(402);
    expect(refused.body).toMatchObject({
      message:
        'Cannot activate subscription: Insufficient funds. Your balance: 6.00 SSL, Required: 20.00 SSL',
      balance: '6.00',
      required: '20.00',
    });
    await depositThroughChain(t, funding, buyer, 14);
    const activated = subscriptionActionResponseSchema.parse(
      (await call(buyer, id, 'activate').set('Idempotency-Key', `activate-${id}`).expect(200)).body,
    );
    expect(activated.chargedMicro).toBe(String(20n * SSL));
    expect(activated.subscription).toMatchObject({
      status: 'active',
      billingCycle: 'hourly',
      remainingHours: 100,
    });
    expect((await clientSetOf(t.db, ids[0]!)).uuids).toContain(uuid);
    // A replay of the same activation moves nothing.
    await call(buyer, id, 'activate').set('Idempotency-Key', `activate-${id}`).expect(200);
    expect(await walletBalance(t.db, buyer.uuid)).toBe(0n);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});

describe('realtime', () => {
  it('should emit server-list-updated after a purchase and after a pause', async () => {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const socket = io(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      reconnection: false,
    });
    const events: Array<{ reason: string }> = [];
    socket.on('server-list-updated', (event: { reason: string }) => events.push(event));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const until = async (count: number) => {
      const deadline = Date.now() + 5000;
      while (events.filter((e) => e.reason === 'subscription').length < count) {
        if (Date.now() > deadline) throw new Error(`no event; got ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      const buyer = await registerAccount(t, { userType: 'client' });
      await depositThroughChain(t, funding, buyer, 10);
      const ids = await servers(operatorB, 1);
      const body = subscriptionCreationResponseSchema.parse(
        (await buy(t, buyer, ids).expect(200)).body,
      );
      await until(1);
      await t
        .http()
        .post(`/api/clients/subscription/${buyer.uuid}/${body.subscriptionId}/pause`)
        .set('Cookie', buyer.cookie)
        .expect(200);
      await until(2);
    } finally {
      socket.close();
    }
  });
});

describe('the market for a client with subscriptions', () => {
  it('should mark the servers the client subscribes to, for that client only', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    const [mine, notMine] = await servers(operatorA, 2);
    await depositThroughChain(t, funding, buyer, 10);
    await buy(t, buyer, [mine!]).expect(200);
    const flags = async (cookie?: string) => {
      const request = t.http().get('/data/servers?limit=100');
      const res = await (cookie ? request.set('Cookie', cookie) : request).expect(200);
      const byId = new Map(
        (res.body.servers as { id: string; isSubscribed: boolean }[]).map((s) => [s.id, s]),
      );
      return [byId.get(mine!)?.isSubscribed, byId.get(notMine!)?.isSubscribed];
    };
    expect(await flags(buyer.cookie)).toEqual([true, false]);
    expect(await flags(other.cookie)).toEqual([false, false]);
    expect(await flags()).toEqual([false, false]);
  });
});
