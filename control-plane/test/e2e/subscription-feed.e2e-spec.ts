import {
  decodeSubscriptionContent,
  parseVlessLink,
  subscriptionCreationResponseSchema,
  subscriptionQrCodesResponseSchema,
} from '@scn/proto';
import { qrDataUrl } from '../../src/subscriptions/qr-code';
import { SubscriptionBillingJob } from '../../src/subscriptions/subscription-billing.job';
import { registerAccount } from '../support/accounts';
import { depositSsl, ledgerViolations } from '../support/ledger';
import { canonicallyEscaped, linkParts } from '../support/link-oracle';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { SHARE_LINK_CORPUS } from '../support/share-link-corpus';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 15 §6: the links a subscription hands out (purchase answer, QR codes, raw file and the
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

beforeAll(async () => {
  // After the launch period (2026-06-30): subscriptions cost money, so one can go unpaid.
  t = await startTestApp({ PUBLIC_URL: PORTAL, LAUNCH_PERIOD_ENDS: '2026-06-30' }, { clock });
  operator = await insertAccount(t.db);
});
afterAll(() => t.close());

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

describe('GET /sub/<secret> for each state of a subscription', () => {
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
    await depositSsl(t.db.url, client.uuid, 20);
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
    await depositSsl(t.db.url, buyer.uuid, 20);
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
    await depositSsl(t.db.url, buyer.uuid, 20);
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

describe('uploaded share links, served back whole', () => {
  it('should hand out every corpus link with all its parameters: upload, stored row, purchase, QR codes, raw file and feed', async () => {
    const node = await registerAccount(t, { userType: 'node' });
    const uploaded = new Map<string, string>();
    for (const [i, entry] of SHARE_LINK_CORPUS.entries()) {
      const name = `Corpus ${i}`;
      const response = await t
        .http()
        .post('/nodes/upload-server')
        .set('Authorization', `Bearer ${node.token}`)
        .send({ uuid: node.uuid, serverInfo: { vlessString: entry.link, name } })
        .expect(201);
      const server = response.body.server as { id: string; host: string; vlessString: string };
      const original = linkParts(entry.link);
      // The host column is canonical: no brackets, lower-case.
      expect(server.host).toBe(original.hostname.replace(/^\[|\]$/g, ''));
      expect(linkParts(server.vlessString)).toEqual({ ...original, name });
      const [row] = await t.db.query<{ vless_string: string }>(
        'SELECT vless_string FROM servers WHERE id = $1',
        [server.id],
      );
      expect(row?.vless_string).toBe(server.vlessString);
      uploaded.set(name, entry.link);
    }

    const client = await registerAccount(t, { userType: 'client' });
    await depositSsl(t.db.url, client.uuid, 10 * SHARE_LINK_CORPUS.length);
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
