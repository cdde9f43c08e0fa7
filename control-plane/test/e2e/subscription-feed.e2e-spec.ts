import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import {
  buildVlessLink,
  decodeSubscriptionContent,
  parseVlessLink,
  UPLOAD_SERVER_MESSAGES,
  subscriptionCreationResponseSchema,
  subscriptionQrCodesResponseSchema,
} from '@scn/proto';
import { ManualServerCheck } from '../../src/manual-servers/manual-server-check';
import { supportedManualLink } from '../../src/manual-servers/manual-servers.service';
import { qrDataUrl } from '../../src/common/qr/qr-code';
import { SubscriptionBillingJob } from '../../src/subscriptions/subscription-billing.job';
import { registerAccount } from '../support/accounts';
import {
  depositThroughChain,
  type FundingChain,
  startFundingChain,
} from '../support/chain-deposits';
import { ledgerViolations } from '../support/ledger';
import { canonicallyEscaped, linkParts } from '../support/link-oracle';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { SHARE_LINK_CORPUS } from '../support/share-link-corpus';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';
import { startVlessTestHost, type VlessTestHost } from '../support/vless-netns';
import { describeNeeding } from '../support/requirements';

/**
 * The links a subscription hands out (purchase answer, QR codes, raw file and the
 * `/sub/<secret>` feed) read with new URL() and carry every parameter an uploaded link came
 * with; IPv6 hosts are bracketed; a subscription that is not running serves placeholders that
 * say why, never its uuid; every feed answer names the portal and its support page.
 */

const PORTAL = 'https://portal.scn.example';
const DASHBOARD = `${PORTAL}/client-dashboard`;
const SUPPORT = `${PORTAL}/support`;
let now = new Date('2026-11-20T12:00:00.000Z');
const clock = { now: () => now };
let t: TestApp;
let operator: string;
/** A real v2ray VLESS server on a test host in a namespace of our own (the upload's check). */
let host: VlessTestHost;
/** The local chain the clients' wallets are funded through (real deposits). */
let funding: FundingChain;

const describeLive = describeNeeding(['v2ray', 'netns'], 'the subscription feed with a test host');
beforeAll(async () => {
  host = await startVlessTestHost(randomUUID(), 'fix15');
  funding = await startFundingChain({ now: () => now.getTime() });
  // After the launch period (2026-06-30): subscriptions cost money, so one can go unpaid.
  // Only the test host's /30 is let through the address policy; every other documentation
  // address stays refused.
  t = await startTestApp(
    {
      ...funding.env,
      PUBLIC_URL: PORTAL,
      LAUNCH_PERIOD_ENDS: '2026-06-30',
      MANUAL_TEST_CIDRS: host.cidr,
      MANUAL_PROBE_URL: host.probeUrl,
    },
    { clock },
  );
  operator = await insertAccount(t.db);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await funding?.stop();
  await host?.close();
});

type Client = Awaited<ReturnType<typeof registerAccount>>;

async function subscribe(client: Client, serverIds: string[]) {
  const response = await buy(t, client, serverIds, { billingCycle: 'monthly' }).expect(200);
  return subscriptionCreationResponseSchema.parse(response.body);
}

function feedPath(subscriptionUrl: string): string {
  return new URL(subscriptionUrl).pathname;
}

async function fetchFeed(path: string) {
  const response = await t.http().get(path).expect(200);
  expect(response.headers['support-url']).toBe(SUPPORT);
  expect(response.headers['profile-web-page-url']).toBe(DASHBOARD);
  expect(response.headers['profile-update-interval']).toBe('12');
  expect(response.headers['profile-title']).toMatch(/^base64:/);
  expect(response.headers['subscription-userinfo']).toMatch(
    /^upload=0; download=0; total=0; expire=\d+$/,
  );
  const decoded = Buffer.from(response.text, 'base64').toString('utf8');
  const links = decodeSubscriptionContent(response.text);
  if (!links) throw new Error(`the feed is not a base64 link list: ${response.text}`);
  return { decoded, links, response };
}

function post(client: Client, id: string, action: string, body: object = {}) {
  return t
    .http()
    .post(`/api/clients/subscription/${client.uuid}/${id}/${action}`)
    .set('Cookie', client.cookie)
    .send(body);
}

/** A placeholder: a valid link to 0.0.0.0:1 whose name carries the portal address. */
function expectPlaceholders(links: string[], headline: string) {
  expect(links).toHaveLength(2);
  for (const link of links) {
    const url = new URL(link);
    expect([url.hostname, url.port]).toEqual(['0.0.0.0', '1']);
    expect(parseVlessLink(link)).toMatchObject({
      uuid: '00000000-0000-0000-0000-000000000000',
      host: '0.0.0.0',
      port: 1,
    });
  }
  expect(linkParts(links[0]!).name).toBe(`${headline} ${DASHBOARD}`);
  expect(linkParts(links[1]!).name).toBe(`Help: ${SUPPORT}`);
}

describeLive('GET /sub/<secret> for each state of a subscription', () => {
  let client: Client;
  let ids: string[];

  beforeAll(async () => {
    client = await registerAccount(t, { userType: 'client' });
    ids = await insertServers(
      t.db,
      [
        { ownerUuid: operator, name: 'Frankfurt', host: 'fra.example.net', port: 443 },
        { ownerUuid: operator, name: 'IPv6 node', host: '2001:db8::7', port: 8443 },
      ],
      now,
    );
  });

  it('should serve the links while active, placeholders while paused, and the links again after activate', async () => {
    await depositThroughChain(t, funding, client, 20);
    const created = await subscribe(client, ids);
    const uuid = created.subscription.uuid;
    const path = feedPath(created.subscriptionUrl);

    const active = await fetchFeed(path);
    expect(active.links).toEqual(created.vlessStrings);
    expect(active.links).toHaveLength(2);
    expect(active.decoded).toContain(uuid);
    const v6 = new URL(active.links[1]!);
    expect([v6.hostname, v6.port]).toEqual(['[2001:db8::7]', '8443']);

    await post(client, created.subscriptionId, 'pause').expect(200);
    const paused = await fetchFeed(path);
    expectPlaceholders(paused.links, 'Paused: activate at');
    expect(paused.decoded).not.toContain(uuid);
    // A client pause stops the paid clock: expire is when the time left would end from now.
    expect(paused.response.headers['subscription-userinfo']).toContain(
      `expire=${Math.floor(new Date(created.expirationDate).getTime() / 1000)}`,
    );

    await post(client, created.subscriptionId, 'activate').expect(200);
    expect((await fetchFeed(path)).links).toEqual(created.vlessStrings);
  });

  it('should serve "Unpaid" placeholders when a billing change could not be paid', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 20);
    const created = await subscribe(buyer, ids);
    // The wallet is empty now: the new cycle's period cannot be paid, the subscription pauses.
    const changed = await post(buyer, created.subscriptionId, 'change-type', {
      newBillingCycle: 'hourly',
    }).expect(200);
    expect(changed.body.automaticallyPaused).toBe(true);
    const unpaid = await fetchFeed(feedPath(created.subscriptionUrl));
    expectPlaceholders(unpaid.links, 'Unpaid: top up and activate at');
    expect(unpaid.decoded).not.toContain(created.subscription.uuid);
  });

  it('should serve "Expired" placeholders once the paid time ended unrenewed', async () => {
    const buyer = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, buyer, 20);
    const created = await subscribe(buyer, ids);
    const startedAt = now;
    now = new Date(now.getTime() + 31 * 86_400_000);
    try {
      await t.app.get(SubscriptionBillingJob).runOnce();
    } finally {
      now = startedAt;
    }
    const [row] = await t.db.query<{ status: string }>(
      'SELECT status FROM subscriptions WHERE id = $1',
      [created.subscriptionId],
    );
    expect(row?.status).toBe('expired');
    const expired = await fetchFeed(feedPath(created.subscriptionUrl));
    expectPlaceholders(expired.links, 'Expired: renew at');
    expect(expired.decoded).not.toContain(created.subscription.uuid);
  });

  it('should name the portal and its support on a 404 too', async () => {
    const response = await t
      .http()
      .get(`/sub/${'A'.repeat(43)}`)
      .expect(404);
    expect(response.headers['support-url']).toBe(SUPPORT);
    expect(response.headers['profile-web-page-url']).toBe(DASHBOARD);
  });

  it('should keep the ledger balanced', async () => {
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});

/** The parts a stored link must keep of the uploaded one: all of them, under the given name. */
function expectKept(stored: string, uploaded: string, name: string) {
  expect(linkParts(stored)).toEqual({ ...linkParts(uploaded), name });
}

describeLive('uploaded share links: the upload path', () => {
  /**
   * The feed lists a server without the agent only on a public address that passed a VLESS
   * check, and only in the shapes that check can verify (tcp, security none or tls, no flow).
   * So every corpus link must get past the link parser and be refused for that reason alone:
   * its address (documentation ranges, never sent a packet) or its shape, never as unreadable.
   */
  it('should parse every corpus link and refuse it only for its address or its unsupported shape', async () => {
    const node = await registerAccount(t, { userType: 'node' });
    const checks = t.app.get(ManualServerCheck);
    const system = checks.resolver;
    // Corpus DNS names answer with a documentation address: no DNS query leaves the machine.
    const lookups: string[] = [];
    const refusals = { address: 0, shape: 0 };
    checks.resolver = async (name) => {
      lookups.push(name);
      return [{ address: '198.51.100.77', family: 4 }];
    };
    try {
      for (const [i, entry] of SHARE_LINK_CORPUS.entries()) {
        const parsed = parseVlessLink(entry.link);
        expect({ label: entry.label, parsed: parsed !== null }).toEqual({
          label: entry.label,
          parsed: true,
        });
        const response = await t
          .http()
          .post('/nodes/upload-server')
          .set('Authorization', `Bearer ${node.token}`)
          .send({ uuid: node.uuid, serverInfo: { vlessString: entry.link, name: `Corpus ${i}` } });
        const bare = parsed!.host.replace(/^\[|\]$/g, '').toLowerCase();
        const literal = isIP(bare) === 6 ? new URL(`http://[${bare}]`).hostname.slice(1, -1) : bare;
        const expected = !supportedManualLink(parsed!)
          ? UPLOAD_SERVER_MESSAGES.unsupported
          : isIP(bare)
            ? UPLOAD_SERVER_MESSAGES.addressRefused(literal, literal, 'documentation')
            : UPLOAD_SERVER_MESSAGES.addressRefused(bare, '198.51.100.77', 'documentation');
        refusals[supportedManualLink(parsed!) ? 'address' : 'shape'] += 1;
        expect({ label: entry.label, status: response.status, body: response.body }).toEqual({
          label: entry.label,
          status: 422,
          body: {
            success: false,
            message: expected,
            code: supportedManualLink(parsed!)
              ? 'nodes.manual_address_refused'
              : 'nodes.manual_unsupported',
          },
        });
      }
    } finally {
      checks.resolver = system;
    }
    // Both refusals were met, and the supported shapes' DNS names were resolved (by the test
    // resolver only).
    expect(refusals.address).toBeGreaterThanOrEqual(5);
    expect(refusals.shape).toBeGreaterThanOrEqual(10);
    expect(lookups).toContain('Node-7.Example.NET'.toLowerCase());
    expect(await t.db.query('SELECT id FROM servers WHERE owner_uuid = $1', [node.uuid])).toEqual(
      [],
    );
  });

  it('should store the corpus links of a checkable shape with every parameter once a real VLESS check through them passes', async () => {
    const node = await registerAccount(t, { userType: 'node' });
    // The corpus links a server without the agent can be (security none: the test host's
    // certificate is self-signed), pointed at the real v2ray in our namespace with its UUID.
    const checkable = SHARE_LINK_CORPUS.filter((entry) => {
      const parsed = parseVlessLink(entry.link)!;
      return supportedManualLink(parsed) && (parsed.params.security ?? 'none') === 'none';
    });
    expect(checkable.length).toBeGreaterThanOrEqual(3);
    for (const [i, entry] of checkable.entries()) {
      const link = entry.link.replace(
        /^vless:\/\/[^@]+@[^/?#]+/,
        `vless://${host.uuid}@${host.serverAddress}:${host.vlessPort}`,
      );
      const name = `Checked ${i}`;
      const probesBefore = host.probeHits();
      const response = await t
        .http()
        .post('/nodes/upload-server')
        .set('Authorization', `Bearer ${node.token}`)
        .send({ uuid: node.uuid, serverInfo: { vlessString: link, name } });
      expect({ label: entry.label, status: response.status }).toEqual({
        label: entry.label,
        status: 201,
      });
      // The check went through the VLESS server to the probe target.
      expect(host.probeHits()).toBeGreaterThan(probesBefore);
      const server = response.body.server as { id: string; host: string; vlessString: string };
      expect(server.host).toBe(host.serverAddress);
      expectKept(server.vlessString, link, name);
      const [row] = await t.db.query<{ vless_string: string }>(
        'SELECT vless_string FROM servers WHERE id = $1',
        [server.id],
      );
      expect(row?.vless_string).toBe(server.vlessString);
    }
  });
});

describeLive('uploaded share links, served back whole', () => {
  it('should hand out every corpus link with all its parameters: stored row, purchase, QR codes, raw file and feed', async () => {
    const node = await registerAccount(t, { userType: 'node' });
    const uploaded = new Map<string, string>();
    // Stored as an upload whose check passed writes them (ManualServersService.upload): the
    // link rebuilt under its name, the host canonical. Shapes the check cannot verify are how
    // links added before it existed are stored, and they are served back whole too.
    const fixtures = SHARE_LINK_CORPUS.map((entry, i) => {
      const name = `Corpus ${i}`;
      const parsed = parseVlessLink(entry.link)!;
      const vlessString = buildVlessLink({ ...parsed, name });
      expectKept(vlessString, entry.link, name);
      uploaded.set(name, entry.link);
      return {
        ownerUuid: node.uuid,
        name,
        source: 'manual' as const,
        tier: null,
        host: parsed.host,
        port: parsed.port,
        vlessString,
        checkedAt: now,
      };
    });
    await insertServers(t.db, fixtures, now);

    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 10 * SHARE_LINK_CORPUS.length);
    const servers = await t.db.query<{ id: string }>(
      'SELECT id FROM servers WHERE owner_uuid = $1 ORDER BY name',
      [node.uuid],
    );
    const created = await subscribe(
      client,
      servers.map((server) => server.id),
    );
    const qr = subscriptionQrCodesResponseSchema.parse(
      (
        await t
          .http()
          .get(`/api/clients/subscription/${client.uuid}/${created.subscriptionId}/qr-codes`)
          .set('Cookie', client.cookie)
          .expect(200)
      ).body,
    );
    const raw = await t
      .http()
      .get(`/clients/download-subscription/${created.subscriptionId}/${created.rawFileName}`)
      .set('Cookie', client.cookie)
      .expect(200);
    const feed = await fetchFeed(feedPath(created.subscriptionUrl));

    const channels = {
      purchase: created.vlessStrings,
      servers: created.servers.map((server) => server.vlessString),
      qr: qr.serverQrCodes.map((code) => code.vlessString),
      raw: raw.text.trim().split('\n'),
      feed: feed.links,
    };
    for (const [channel, links] of Object.entries(channels)) {
      expect({ channel, count: links.length }).toEqual({
        channel,
        count: SHARE_LINK_CORPUS.length,
      });
      for (const link of links) {
        const served = linkParts(link);
        const original = uploaded.get(served.name);
        expect({ channel, name: served.name, known: original !== undefined }).toEqual({
          channel,
          name: served.name,
          known: true,
        });
        expect({ channel, ...served }).toEqual({
          channel,
          ...linkParts(original!),
          name: served.name,
        });
        expect({ channel, link, canonical: canonicallyEscaped(link) }).toEqual({
          channel,
          link,
          canonical: true,
        });
      }
    }
    // The QR images carry those same links.
    for (const code of qr.serverQrCodes) {
      expect(code.qrCode).toBe(qrDataUrl(code.vlessString).qrCode);
    }
  });
});
