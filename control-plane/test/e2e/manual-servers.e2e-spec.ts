import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { UPLOAD_SERVER_MESSAGES } from '@scn/proto';
import { DataSource } from 'typeorm';
import { ManualServers1764000001000 } from '../../src/database/migrations/1764000001000-manual-servers';
import { ManualServerCheck } from '../../src/manual-servers/manual-server-check';
import { ManualServerCheckJob } from '../../src/manual-servers/manual-server-check.job';
import { ReliabilitySweepJob } from '../../src/agent-reports/reliability-sweep.job';
import { registerAccount } from '../support/accounts';
import {
  depositThroughChain,
  type FundingChain,
  startFundingChain,
} from '../support/chain-deposits';
import { ledgerViolations } from '../support/ledger';
import { insertServers } from '../support/market-fixtures';
import { buy, platformRevenue, walletBalance } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';
import { startVlessTestHost, type VlessTestHost } from '../support/vless-netns';
import { describeNeeding } from '../support/requirements';

/**
 * Add New Server against a real v2ray VLESS server in a network namespace of our
 * own (TEST-NET-3, see vless-netns.ts). Every other address is refused before any packet is
 * sent: the loopback and own-address cases prove it with a listener that must see nothing.
 */
const UUID = randomUUID();
const LIMIT = 3;
let now = new Date('2026-11-01T00:00:00Z');
const clock = { now: () => now };
let host: VlessTestHost;
let t: TestApp;
/** The local chain a client's wallet is funded through (a real deposit). */
let funding: FundingChain;

const describeLive = describeNeeding(['v2ray', 'netns'], 'Add New Server against a test host');
beforeAll(async () => {
  host = await startVlessTestHost(UUID);
  funding = await startFundingChain({ now: () => now.getTime() });
  t = await startTestApp(
    {
      ...funding.env,
      MANUAL_TEST_CIDRS: host.cidr,
      MANUAL_PROBE_URL: host.probeUrl,
      MANUAL_SERVER_LIMIT: String(LIMIT),
      MARKET_PAGE_CACHE_MS: '0',
      // Paid subscriptions: the launch period is over.
      LAUNCH_PERIOD_ENDS: '2026-06-30',
    },
    { clock },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await funding?.stop();
  await host?.close();
});

type Operator = { uuid: string; token: string };

const link = (address: string, port: number, uuid = UUID, query = 'security=none&type=tcp') =>
  `vless://${uuid}@${address}:${port}?${query}#Home%20box`;
const good = () => link(host.serverAddress, host.vlessPort);

function upload(operator: Operator, serverInfo: Record<string, unknown>, uuid = operator.uuid) {
  return t
    .http()
    .post('/nodes/upload-server')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ uuid, serverInfo });
}

async function serversOf(owner: string): Promise<Array<{ id: string }>> {
  return t.db.query('SELECT id FROM servers WHERE owner_uuid = $1', [owner]);
}

async function marketIds(): Promise<string[]> {
  const res = await t.http().get('/data/servers?limit=100').expect(200);
  return (res.body.servers as Array<{ id: string }>).map((s) => s.id);
}

/** A TCP listener that counts connections: a refusal must never reach it. */
async function listener(
  address: string,
  port = 0,
): Promise<{ port: number; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((socket) => {
    hits += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port, address, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeLive('Add New Server: addresses', () => {
  it('should refuse loopback hosts, literal or by name, before connecting to them', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const local = await listener('127.0.0.1');
    try {
      const literal = await upload(operator, { vlessString: link('127.0.0.1', local.port) });
      expect(literal.status).toBe(422);
      expect(literal.body).toEqual({
        success: false,
        message: UPLOAD_SERVER_MESSAGES.addressRefused('127.0.0.1', '127.0.0.1', 'loopback'),
        code: 'nodes.manual_address_refused',
      });
      // A name we control (/etc/hosts: no DNS query leaves the machine).
      const named = await upload(operator, { vlessString: link('localhost', local.port) });
      expect(named.status).toBe(422);
      expect(named.body.message).toMatch(
        /^This server cannot be added: localhost resolves to (127\.0\.0\.1|::1), a loopback address\./,
      );
      const mapped = await upload(operator, {
        vlessString: link('[::ffff:127.0.0.1]', local.port),
      }).expect(422);
      expect(mapped.body.message).toBe(
        UPLOAD_SERVER_MESSAGES.addressRefused('127.0.0.1', '127.0.0.1', 'loopback'),
      );
      expect(local.hits()).toBe(0);
    } finally {
      await local.close();
    }
    expect(await serversOf(operator.uuid)).toEqual([]);
  });

  it('should refuse private, link-local, CGNAT, multicast, reserved and IPv6 local addresses without sending a packet', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const cases: Array<[string, string]> = [
      ['10.1.2.3', 'private'],
      ['172.16.5.4', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared (CGNAT)'],
      ['224.0.0.1', 'multicast'],
      ['0.0.0.0', 'unspecified'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      // TEST-NET outside the test's allowed /30 is a documentation address like any other.
      ['198.51.100.7', 'documentation'],
      ['[::1]', 'loopback'],
      ['[::]', 'unspecified'],
      ['[fd00::1]', 'private'],
      ['[fe80::1]', 'link-local'],
      ['[ff02::1]', 'multicast'],
      ['[2001:db8::1]', 'documentation'],
      ['[::ffff:10.0.0.1]', 'private'],
      ['[::ffff:169.254.169.254]', 'link-local'],
      ['[64:ff9b::a00:1]', 'private'],
    ];
    for (const [hostPart, kind] of cases) {
      const res = await upload(operator, { vlessString: link(hostPart, 443) }).expect(422);
      expect(res.body.message).toMatch(`a ${kind} address. Only public addresses can be added.`);
    }
    expect(await serversOf(operator.uuid)).toEqual([]);
  });

  it("should refuse the control plane's own addresses, even inside the allowed test range", async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const own = await listener(host.hostAddress);
    try {
      const res = await upload(operator, { vlessString: link(host.hostAddress, own.port) }).expect(
        422,
      );
      expect(res.body.message).toBe(
        UPLOAD_SERVER_MESSAGES.addressRefused(
          host.hostAddress,
          host.hostAddress,
          "this service's own",
        ),
      );
      expect(own.hits()).toBe(0);
    } finally {
      await own.close();
    }
  });

  // (A name that does not resolve would need a DNS query to the outside: pinned-address.spec.ts.)
  it('should refuse link shapes the check cannot verify', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    for (const query of [
      'security=reality&pbk=abc&type=tcp',
      'security=none&type=ws',
      'security=tls&flow=xtls-rprx-vision',
    ]) {
      const refused = await upload(operator, {
        vlessString: link(host.serverAddress, host.vlessPort, UUID, query),
      }).expect(422);
      expect(refused.body.message).toBe(UPLOAD_SERVER_MESSAGES.unsupported);
    }
    expect(await serversOf(operator.uuid)).toEqual([]);
  });
});

describeLive('Add New Server: the VLESS check', () => {
  it('should add a server that passes the check, listed free with shared credentials', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const hits = host.probeHits();
    const res = await upload(operator, { vlessString: good() }).expect(201);
    expect(host.probeHits()).toBe(hits + 1);
    expect(res.body).toMatchObject({
      success: true,
      message: UPLOAD_SERVER_MESSAGES.uploaded,
      server: {
        name: 'Home box',
        source: 'manual',
        host: host.serverAddress,
        port: host.vlessPort,
        reliability: 100,
        sharedCredentials: true,
        check: { state: 'passed', error: null },
      },
    });
    const market = await t.http().get('/data/servers?limit=100').expect(200);
    const card = (market.body.servers as Array<Record<string, unknown>>).find(
      (s) => s.id === res.body.server.id,
    );
    expect(card).toMatchObject({
      price: 0,
      priceMicro: '0',
      sharedCredentials: true,
      serverType: 'manual',
      controls: { price: 0 },
    });
  });

  it('should refuse a link whose UUID the server does not accept, or a service that is not VLESS', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const wrong = await upload(operator, {
      vlessString: link(host.serverAddress, host.vlessPort, randomUUID()),
    }).expect(422);
    expect(wrong.body.message).toBe(
      UPLOAD_SERVER_MESSAGES.checkFailed(
        'it closed the connection without a VLESS answer (a wrong UUID, or it cannot reach the internet)',
      ),
    );
    const notVless = await upload(operator, {
      vlessString: link(host.serverAddress, host.notVlessPort),
    }).expect(422);
    expect(notVless.body.message).toBe(
      UPLOAD_SERVER_MESSAGES.checkFailed('it did not answer as a VLESS server'),
    );
    expect(await serversOf(operator.uuid)).toEqual([]);
  });
});

describeLive('Add New Server: DNS rebinding', () => {
  it('should connect to the address it checked, and refuse the name once it answers loopback', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const checks = t.app.get(ManualServerCheck);
    const system = checks.resolver;
    // A rebinding DNS for `localhost`: the test host on the first lookup, then loopback (TTL 0).
    // A socket that resolved the name itself would get 127.0.0.1 from /etc/hosts and land on
    // the listener below, on the VLESS port.
    let lookups = 0;
    checks.resolver = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? host.serverAddress : '127.0.0.1', family: 4 }];
    };
    const local = await listener('127.0.0.1', host.vlessPort);
    try {
      const res = await upload(operator, { vlessString: link('localhost', host.vlessPort) }).expect(
        201,
      );
      expect(lookups).toBe(1);
      expect(res.body.server).toMatchObject({ host: 'localhost', check: { state: 'passed' } });

      // The next minute's check resolves again, gets loopback and refuses it, sending nothing.
      now = new Date(now.getTime() + 60_000);
      await t.app.get(ManualServerCheckJob).runOnce();
      expect(lookups).toBe(2);
      const [row] = await t.db.query<{ check_error: string | null }>(
        'SELECT check_error FROM servers WHERE id = $1',
        [res.body.server.id],
      );
      expect(row?.check_error).toBe(
        UPLOAD_SERVER_MESSAGES.addressRefused('localhost', '127.0.0.1', 'loopback'),
      );
      expect(local.hits()).toBe(0);
    } finally {
      checks.resolver = system;
      await local.close();
    }
  });
});

describeLive('Add New Server: names with several addresses', () => {
  it('should try the next checked address only when a connection cannot be opened', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const checks = t.app.get(ManualServerCheck);
    const system = checks.resolver;
    // The broadcast address of the test /30: allowed, and refused by the kernel at connect.
    const [a, b, c, d] = host.cidr.split('/')[0]!.split('.').map(Number) as [
      number,
      number,
      number,
      number,
    ];
    const dead = `${a}.${b}.${c}.${d + 3}`;
    let answer = [dead, host.serverAddress];
    checks.resolver = async () => answer.map((address) => ({ address, family: 4 }));
    try {
      await upload(operator, { vlessString: link('localhost', host.vlessPort) }).expect(201);
      answer = [dead];
      const res = await upload(operator, { vlessString: link('localhost', host.vlessPort) }).expect(
        422,
      );
      expect(res.body.message).toBe(
        UPLOAD_SERVER_MESSAGES.checkFailed(`could not connect to localhost:${host.vlessPort}`),
      );
      // A wrong UUID is not retried on another address (the server answered): its reason stands.
      answer = [host.serverAddress, dead];
      const wrong = await upload(operator, {
        vlessString: link('localhost', host.vlessPort, randomUUID()),
      }).expect(422);
      expect(wrong.body.message).toMatch('it closed the connection without a VLESS answer');
    } finally {
      checks.resolver = system;
    }
  });
});

describeLive('Add New Server: the per-operator limit', () => {
  it(`should take at most ${LIMIT} servers without the agent per operator`, async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const ids: string[] = [];
    for (let i = 0; i < LIMIT; i += 1) {
      ids.push((await upload(operator, { vlessString: good() }).expect(201)).body.server.id);
    }
    const over = await upload(operator, { vlessString: good() }).expect(409);
    expect(over.body).toEqual({
      success: false,
      message: UPLOAD_SERVER_MESSAGES.limit(LIMIT),
      code: 'nodes.manual_limit',
    });
    expect(await serversOf(operator.uuid)).toHaveLength(LIMIT);
    // Another operator is not affected; a deleted server frees its place.
    const other = await registerAccount(t, { userType: 'node' });
    await upload(other, { vlessString: good() }).expect(201);
    await t
      .http()
      .delete(`/nodes/server/${operator.uuid}/${ids[0]}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    await upload(operator, { vlessString: good() }).expect(201);
  });
});

describeLive('servers that existed before the check (the migration)', () => {
  it('should be unlisted until a check passes, then listed at 100; a failing one stays unlisted', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const dataSource = t.app.get(DataSource);
    const migration = new ManualServers1764000001000();
    const runner = dataSource.createQueryRunner();
    // The schema as it was before this migration, with manual servers as they were written then:
    // listed at 100 without any check, one of them with a UUID the server refuses.
    await migration.down(runner);
    const [working, refusing, reality] = [randomUUID(), randomUUID(), randomUUID()];
    await insertServers(
      t.db,
      [
        {
          id: working,
          ownerUuid: operator.uuid,
          source: 'manual',
          tier: null,
          host: host.serverAddress,
          port: host.vlessPort,
        },
        {
          id: refusing,
          ownerUuid: operator.uuid,
          source: 'manual',
          tier: null,
          host: host.serverAddress,
          port: host.vlessPort,
        },
      ],
      now,
    );
    await insertServers(
      t.db,
      [
        {
          id: reality,
          ownerUuid: operator.uuid,
          source: 'manual',
          tier: null,
          host: '192.168.7.7',
        },
      ],
      now,
    );
    // A shape the check cannot verify (and an address it must not reach): fails without a packet.
    await t.db.query(`UPDATE servers SET vless_string = $2 WHERE id = $1`, [
      reality,
      link('192.168.7.7', 443, UUID, 'security=reality&pbk=abc&type=tcp'),
    ]);
    await t.db.query(`UPDATE servers SET vless_string = $2 WHERE id = $1`, [working, good()]);
    await t.db.query(`UPDATE servers SET vless_string = $2 WHERE id = $1`, [
      refusing,
      link(host.serverAddress, host.vlessPort, randomUUID()),
    ]);
    expect(await marketIds()).toEqual(expect.arrayContaining([working, refusing]));
    await migration.up(runner);
    await runner.release();

    const listed = await marketIds();
    expect(listed).not.toContain(working);
    expect(listed).not.toContain(refusing);
    const pending = await t
      .http()
      .get(`/nodes/servers/${operator.uuid}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    expect(pending.body.servers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: working,
          reliability: 0,
          check: { state: 'pending', checkedAt: null, error: null },
        }),
      ]),
    );

    now = new Date(now.getTime() + 60_000);
    await t.app.get(ManualServerCheckJob).runOnce();
    await t.app.get(ReliabilitySweepJob).runOnce();
    const after = await marketIds();
    expect(after).toContain(working);
    expect(after).not.toContain(refusing);
    const dashboard = await t
      .http()
      .get(`/nodes/servers/${operator.uuid}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    const byId = new Map(
      (dashboard.body.servers as Array<Record<string, unknown>>).map((s) => [s.id, s]),
    );
    expect(byId.get(working)).toMatchObject({
      reliability: 100,
      check: { state: 'passed', error: null },
    });
    expect(byId.get(reality)).toMatchObject({
      check: { state: 'failed', error: UPLOAD_SERVER_MESSAGES.unsupported },
    });
    expect(after).not.toContain(reality);
    expect(byId.get(refusing)).toMatchObject({
      reliability: 0,
      available: false,
      check: { state: 'failed', error: expect.stringContaining('without a VLESS answer') },
    });
  });
});

describeLive('buying a free server without the agent', () => {
  it('should charge 0 SSL for it and pay its operator nothing, alongside a paid agent server', async () => {
    const manualOperator = await registerAccount(t, { userType: 'node' });
    const agentOperator = await registerAccount(t, { userType: 'node' });
    const client = await registerAccount(t, { userType: 'client' });
    const manualId = (await upload(manualOperator, { vlessString: good() }).expect(201)).body.server
      .id as string;
    const [agentId] = await insertServers(t.db, [{ ownerUuid: agentOperator.uuid }], now);
    // Sort by price: free first when best first, paid first when worst first.
    const byPrice = async (order: 'asc' | 'desc') => {
      const res = await t
        .http()
        .get(`/data/servers?sort=price&order=${order}&limit=100`)
        .expect(200);
      return (res.body.servers as Array<{ id: string }>).map((s) => s.id);
    };
    const cheapest = await byPrice('desc');
    expect(cheapest.indexOf(manualId)).toBeLessThan(cheapest.indexOf(agentId!));
    const dearest = await byPrice('asc');
    expect(dearest.indexOf(agentId!)).toBeLessThan(dearest.indexOf(manualId));
    await depositThroughChain(t, funding, client, 100);
    const revenue = await platformRevenue(t.db);

    const alone = await buy(t, client, [manualId]).expect(200);
    expect(alone.body).toMatchObject({ charged: 0, chargedMicro: '0', paymentId: null });
    // Shared credentials: the client gets the operator's own link and UUID.
    expect(alone.body.vlessString).toContain(
      `vless://${UUID}@${host.serverAddress}:${host.vlessPort}`,
    );

    const mixed = await buy(t, client, [manualId, agentId!]).expect(200);
    expect(mixed.body).toMatchObject({ charged: 10, chargedMicro: '10000000' });
    expect(await walletBalance(t.db, client.uuid)).toBe(90_000_000n);
    expect(await walletBalance(t.db, agentOperator.uuid, 'node_wallet')).toBe(10_000_000n);
    expect(await walletBalance(t.db, manualOperator.uuid, 'node_wallet')).toBe(0n);
    const rewards = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
       WHERE a.owner_uuid = $1`,
      [manualOperator.uuid],
    );
    expect(rewards[0]?.n).toBe(0);
    expect(await platformRevenue(t.db)).toBe(revenue);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});
