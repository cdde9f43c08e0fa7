import http from 'node:http';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CheckSharesResponse,
  type RecordShareResponse,
  SOCIAL_MESSAGES,
  SOCIAL_ROUTES,
  WALLET_ROUTES,
  type WalletData,
} from '@scn/proto';
import { fileClock } from '../../src/common/test-clock';
import { ShareRewardsJob } from '../../src/social/share-rewards.job';
import { registerAccount } from '../support/accounts';
import { ledgerViolations } from '../support/ledger';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Share-and-earn on the built server, its time moved by the project's test clock
 * (TEST_CLOCK_FILE): a share at prime time and one outside it, the bad inputs, the 7-day limit,
 * one claim per post, and the payout after 24 hours (run twice: paid once), with
 * SHARE_VERIFY_FETCH on against a local HTTP server that answers 404 for a deleted post.
 */
const MINUTE = 60_000;
const DAY = 86_400_000;
/** A Wednesday, 12:05 UTC: prime time in UTC, 17:35 (not prime) in Asia/Kolkata. */
const START = Date.parse('2026-12-02T12:05:00Z');

let t: TestApp;
let dir: string;
let clockFile: string;
let posts: http.Server;
const deleted = new Set<string>();
const fetched: string[] = [];

/** Moves the server's clock to `at` (the file holds the offset from the real clock). */
function setClock(at: number): void {
  writeFileSync(`${clockFile}.tmp`, `${at - Date.now()}\n`);
  renameSync(`${clockFile}.tmp`, clockFile);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scn-social-'));
  clockFile = join(dir, 'clock');
  setClock(START);
  posts = http.createServer((req, res) => {
    fetched.push(req.url ?? '');
    res.writeHead(deleted.has(req.url ?? '') ? 404 : 200).end('<html>post</html>');
  });
  await new Promise<void>((resolve) => posts.listen(0, '127.0.0.1', resolve));
  t = await startTestApp(
    {
      TEST_CLOCK_FILE: clockFile,
      SHARE_VERIFY_FETCH: 'true',
      SHARE_VERIFY_BASE_URL: `http://127.0.0.1:${(posts.address() as AddressInfo).port}`,
    },
    { clock: fileClock(clockFile) },
  );
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => posts.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  expect(await ledgerViolations(t.db.url)).toEqual([]);
});

type Account = Awaited<ReturnType<typeof registerAccount>>;

function record(
  who: Account,
  body: Record<string, unknown>,
  route: string = SOCIAL_ROUTES.recordShare,
) {
  return t
    .http()
    .post(route)
    .set('Cookie', who.cookie)
    .send({ userId: who.uuid, timeZone: 'UTC', platform: 'twitter', ...body });
}

async function check(who: Account): Promise<CheckSharesResponse> {
  const res = await t.http().get(SOCIAL_ROUTES.checkShares(who.uuid)).set('Cookie', who.cookie);
  expect(res.status).toBe(200);
  return res.body as CheckSharesResponse;
}

async function wallet(who: Account, type: 'client' | 'node'): Promise<WalletData> {
  const route = type === 'client' ? WALLET_ROUTES.clientWallet : WALLET_ROUTES.nodeWallet;
  const res = await t.http().get(route(who.uuid)).set('Cookie', who.cookie);
  expect(res.status).toBe(200);
  return res.body.data as WalletData;
}

describe('share-and-earn on the built server', () => {
  let client: Account;
  let operator: Account;
  let other: Account;

  beforeAll(async () => {
    client = await registerAccount(t);
    operator = await registerAccount(t, { userType: 'node' });
    other = await registerAccount(t);
  });

  it('should need a session and the account itself', async () => {
    await t.http().get(SOCIAL_ROUTES.checkShares(client.uuid)).expect(401);
    await t
      .http()
      .get(SOCIAL_ROUTES.checkShares(client.uuid))
      .set('Cookie', other.cookie)
      .expect(403);
    await record(other, { userId: client.uuid, postUrl: 'https://x.com/a/status/5' }).expect(403);
    expect(await check(client)).toMatchObject({
      success: true,
      availablePlatforms: { twitter: true, instagram: true, telegram: true },
      pendingRewardMicro: '0',
      shares: [],
    });
  });

  it('should refuse bad input with 400 and write nothing', async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [
        { postUrl: 'https://x.com/a/status/11', timeZone: 'Mars/Olympus' },
        SOCIAL_MESSAGES.timeZoneInvalid,
      ],
      [
        { postUrl: 'https://x.com/a/status/11', timeZone: '+05:30' },
        SOCIAL_MESSAGES.timeZoneInvalid,
      ],
      [{ postUrl: 'https://evil.example/a/status/11' }, SOCIAL_MESSAGES.urlNotPlatform('twitter')],
      [
        { postUrl: 'https://x.com/a/status/11', platform: 'instagram' },
        SOCIAL_MESSAGES.urlNotPlatform('instagram'),
      ],
      [{ postUrl: 'http://x.com/a/status/11' }, SOCIAL_MESSAGES.urlNotPlatform('twitter')],
      [
        { postUrl: 'https://t.me/c/1234567/11', platform: 'telegram' },
        SOCIAL_MESSAGES.urlNotPlatform('telegram'),
      ],
      [{ postUrl: 'x.com/a/status/11' }, SOCIAL_MESSAGES.urlNotHttp],
      [{ postUrl: '' }, SOCIAL_MESSAGES.urlRequired],
      [
        { postUrl: 'https://x.com/a/status/11', platform: 'facebook' },
        SOCIAL_MESSAGES.platformInvalid,
      ],
      [{ postUrl: 'https://x.com/a/status/11', amount: 1 }, /amount/],
    ];
    for (const [body, message] of cases) {
      const res = await record(client, body);
      expect([res.status, res.body.message]).toEqual([
        400,
        typeof message === 'string' ? message : expect.stringMatching(message),
      ]);
    }
    const amount = await record(
      client,
      { postUrl: 'https://x.com/a/status/11', amount: 1 },
      SOCIAL_ROUTES.addSocialReward,
    );
    expect(amount.status).toBe(400);
    expect((await check(client)).shares).toEqual([]);
  });

  it('should reward 1 SSL at prime time in the stated zone and 0.1 SSL outside it', async () => {
    const prime = await record(client, {
      postUrl: 'https://twitter.com/someone/status/900001?s=20',
      // The client's clock claims another time: never used.
      clientTime: '2026-12-02T03:00:00',
      timestamp: '2026-12-02T03:00:00Z',
    }).expect(200);
    const body = prime.body as RecordShareResponse;
    expect(body.pendingReward).toMatchObject({
      amount: 1,
      amountMicro: '1000000',
      isPrimeTime: true,
    });
    expect(body.share.postUrl).toBe('https://x.com/i/status/900001');
    expect(body.availablePlatforms).toEqual({ twitter: false, instagram: true, telegram: true });
    // The client dashboard's call: the same rule (17:35 in Kolkata is not prime time).
    const kolkata = await record(
      operator,
      {
        timeZone: 'Asia/Kolkata',
        platform: 'instagram',
        postUrl: 'https://www.instagram.com/reel/Share0001/',
      },
      SOCIAL_ROUTES.addSocialReward,
    ).expect(200);
    expect((kolkata.body as RecordShareResponse).pendingReward).toMatchObject({
      amountMicro: '100000',
      isPrimeTime: false,
    });
    expect(await check(client)).toMatchObject({
      availablePlatforms: { twitter: false, instagram: true, telegram: true },
      pendingRewardMicro: '1000000',
      shares: [{ status: 'pending', rewardMicro: '1000000', isPrimeTime: true }],
    });
  });

  it('should allow one share per platform per 7 days and one claim per post', async () => {
    const again = await record(client, { postUrl: 'https://x.com/someone/status/900002' }).expect(
      409,
    );
    expect(again.body.message).toBe(SOCIAL_MESSAGES.alreadyShared('twitter'));
    const claimed = await record(other, {
      postUrl: 'https://mobile.x.com/Other/status/900001/',
    }).expect(409);
    expect(claimed.body.message).toBe(SOCIAL_MESSAGES.postAlreadyClaimed);
    expect((await check(other)).availablePlatforms.twitter).toBe(true);
  });

  it('should pay after 24 hours once, and forfeit a post that is gone (404)', async () => {
    await record(other, { postUrl: 'https://x.com/other/status/900003' }).expect(200);
    deleted.add('/i/status/900003');
    const jobs = t.app.get(ShareRewardsJob);

    setClock(START + DAY - MINUTE);
    expect(await jobs.runOnce()).toMatchObject({ paid: 0, forfeited: 0 });

    setClock(START + DAY + MINUTE);
    expect(await jobs.runOnce()).toMatchObject({ paid: 2, forfeited: 1 });
    expect(await jobs.runOnce()).toMatchObject({ paid: 0, forfeited: 0 });
    expect(fetched).toEqual(
      expect.arrayContaining(['/i/status/900001', '/p/Share0001/', '/i/status/900003']),
    );

    const clientWallet = await wallet(client, 'client');
    expect(clientWallet.balanceMicro).toBe('1000000');
    expect(clientWallet.transactions).toEqual([
      expect.objectContaining({ type: 'social_reward', amountMicro: '1000000' }),
    ]);
    expect((await wallet(operator, 'node')).balanceMicro).toBe('100000');
    expect((await wallet(other, 'client')).balanceMicro).toBe('0');
    expect((await check(other)).shares).toEqual([
      expect.objectContaining({ status: 'forfeited', rewardMicro: '1000000' }),
    ]);
    expect(await check(client)).toMatchObject({
      pendingRewardMicro: '0',
      shares: [{ status: 'paid' }],
    });

    // A week on, X is available again.
    setClock(START + 7 * DAY + MINUTE);
    expect((await check(client)).availablePlatforms).toEqual({
      twitter: true,
      instagram: true,
      telegram: true,
    });
  });

  it("should take a Telegram channel's post as one claim in any spelling", async () => {
    const first = await registerAccount(t);
    const second = await registerAccount(t);
    const shared = await record(first, {
      platform: 'telegram',
      postUrl: 'https://t.me/s/ScnChannel/42?single',
    }).expect(200);
    const body = shared.body as RecordShareResponse;
    expect(body.share).toMatchObject({
      platform: 'telegram',
      postUrl: 'https://t.me/scnchannel/42',
    });
    expect(body.availablePlatforms).toEqual({ twitter: true, instagram: true, telegram: false });
    const again = await record(second, {
      platform: 'telegram',
      postUrl: 'https://telegram.me/scnchannel/42/',
    }).expect(409);
    expect(again.body.message).toBe(SOCIAL_MESSAGES.postAlreadyClaimed);
  });
});
