import { subscriptionCreationResponseSchema } from '@scn/proto';
import { SubscriptionsRepository } from '../../src/subscriptions/subscriptions.repository';
import { registerAccount } from '../support/accounts';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Two replicas of the real application on one database (docs/architecture.md
 * #subscription-feed): replica B answers a feed from its memory, and a change made through
 * replica A's API reaches it over LISTEN/NOTIFY.
 */
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  const env = { LAUNCH_PERIOD_ENDS: '2099-12-31' };
  a = await startTestApp(env);
  b = await startTestApp({ ...env, DATABASE_URL: a.db.url });
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** Fetches on `app` until `done` holds for the answer (a replica that never hears: 5 s, fails). */
async function until(app: TestApp, path: string, done: (text: string, status: number) => boolean) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const response = await app.http().get(path);
    if (done(response.text, response.status)) return response;
    if (Date.now() > deadline) throw new Error(`still ${response.status}: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const decoded = (text: string) => Buffer.from(text, 'base64').toString('utf8');

describe('the feed on two replicas', () => {
  it('should answer from memory, and show a pause and a deletion made on the other replica', async () => {
    const operator = await insertAccount(a.db);
    const servers = await insertServers(
      a.db,
      [{ ownerUuid: operator, name: 'Node A' }],
      new Date(),
    );
    const client = await registerAccount(a, { userType: 'client' });
    const created = subscriptionCreationResponseSchema.parse(
      (await buy(a, client, servers).expect(200)).body,
    );
    const path = new URL(created.subscriptionUrl).pathname;
    const uuid = created.subscription.uuid;

    const reads = jest.spyOn(b.app.get(SubscriptionsRepository), 'feedSnapshot');
    const first = await b.http().get(path).expect(200);
    expect(decoded(first.text)).toContain(uuid);
    const again = await b.http().get(path).expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['subscription-userinfo']).toBe(first.headers['subscription-userinfo']);
    // HEAD: the same status and headers, no body, from memory too.
    const head = await b.http().head(path).expect(200);
    expect(head.headers['content-type']).toBe(first.headers['content-type']);
    expect(head.headers['profile-title']).toBe(first.headers['profile-title']);
    expect(reads).toHaveBeenCalledTimes(1);

    const action = (name: string) =>
      a
        .http()
        .post(`/api/clients/subscription/${client.uuid}/${created.subscriptionId}/${name}`)
        .set('Cookie', client.cookie)
        .send({});
    await action('pause').expect(200);
    const paused = await until(b, path, (text) => !decoded(text).includes(uuid));
    expect(decoded(paused.text)).toContain('#Paused%3A%20activate%20at');

    await a
      .http()
      .delete(`/api/clients/subscription/${client.uuid}/${created.subscriptionId}`)
      .set('Cookie', client.cookie)
      .expect(200);
    const gone = await until(b, path, (_text, status) => status === 404);
    expect(gone.text).toBe('Not found');
    reads.mockRestore();
  });
});
