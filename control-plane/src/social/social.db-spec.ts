import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RecordShareRequest, SHARE_PLATFORMS } from '@scn/proto';
import { ledgerViolations } from '../../test/support/ledger';
import { insertAccount } from '../../test/support/market-fixtures';
import { MovableClock } from '../../test/support/market-model';
import { repositoryDatabase } from '../../test/support/server-rows';
import type { AppConfig } from '../config/app-config';
import { TransactionRunner } from '../database/transaction-runner';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { ShareRewardsService } from './share-rewards.service';
import { SocialException } from './social.exception';
import { SocialRepository } from './social.repository';
import { SocialService } from './social.service';

const t = repositoryDatabase();
/** A Wednesday: 12:00 UTC is prime time in UTC, 09:00 UTC is not. */
const PRIME = new Date('2026-11-25T12:00:00.000Z');
const NORMAL = new Date('2026-11-25T09:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let clock: MovableClock;
let social: SocialService;
let repository: SocialRepository;
let runner: TransactionRunner;
let ledger: LedgerService;
let postCounter = 1_000;

const verify: AppConfig['shareVerify'] = { enabled: false, baseUrl: null, timeoutMs: 2_000 };
function payouts(): ShareRewardsService {
  return new ShareRewardsService(
    repository,
    ledger,
    runner,
    { shareVerify: verify } as AppConfig,
    clock,
  );
}

beforeAll(() => {
  clock = new MovableClock(PRIME);
  runner = new TransactionRunner(t.dataSource);
  ledger = new LedgerService(new WalletRepository(t.dataSource));
  repository = new SocialRepository(t.dataSource);
  social = new SocialService(repository, runner, clock);
});
beforeEach(() => {
  clock.at = PRIME;
  verify.enabled = false;
  verify.baseUrl = null;
});
afterEach(async () => {
  expect(await ledgerViolations(t.db.url)).toEqual([]);
});

function tweet(): string {
  postCounter += 1;
  return `https://x.com/someone/status/${postCounter}`;
}

function share(userId: string, overrides: Partial<RecordShareRequest> = {}): RecordShareRequest {
  return { userId, platform: 'twitter', postUrl: tweet(), timeZone: 'UTC', ...overrides };
}

async function refusal(work: Promise<unknown>): Promise<SocialException> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SocialException);
  return error as SocialException;
}

async function balance(owner: string, kind: string): Promise<bigint> {
  const rows = await t.db.query<{ balance: string }>(
    `SELECT balance_micro::text AS balance FROM ledger_accounts WHERE kind = $1 AND owner_uuid = $2`,
    [kind, owner],
  );
  return BigInt(rows[0]?.balance ?? '0');
}

/** The reward pool: a system account, whose balance is the sum of its entries. */
async function pool(): Promise<bigint> {
  const rows = await t.db.query<{ total: string }>(
    `SELECT COALESCE(sum(e.amount_micro), 0)::text AS total FROM ledger_entries e
     JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = 'reward_pool'`,
  );
  return BigInt(rows[0]!.total);
}

describe('SocialService.record', () => {
  it('should compute 1 SSL at prime time and 0.1 SSL otherwise, from the server clock', async () => {
    const a = await insertAccount(t.db, { userType: 'client' });
    // The client's own clock says prime time: ignored.
    clock.at = NORMAL;
    const normal = await social.record(
      a,
      share(a, { clientTime: '2026-11-25T12:00:00', timestamp: Date.parse('2026-11-25T12:00Z') }),
    );
    expect(normal.pendingReward).toMatchObject({
      amount: 0.1,
      amountMicro: '100000',
      isPrimeTime: false,
    });
    const b = await insertAccount(t.db, { userType: 'client' });
    clock.at = PRIME;
    // 12:00 UTC is 17:30 in Kolkata: not prime there.
    const kolkata = await social.record(b, share(b, { timeZone: 'Asia/Kolkata' }));
    expect(kolkata.pendingReward.isPrimeTime).toBe(false);
    const c = await insertAccount(t.db, { userType: 'client' });
    const utc = await social.record(c, share(c));
    expect(utc.pendingReward).toMatchObject({
      amount: 1,
      amountMicro: '1000000',
      isPrimeTime: true,
    });
    expect(utc.pendingReward.paysAt).toBe(new Date(PRIME.getTime() + DAY).toISOString());
    expect(utc.availablePlatforms).toEqual({ twitter: false, instagram: true, telegram: true });
  });

  it('should allow one share per platform per 7 days', async () => {
    const a = await insertAccount(t.db, { userType: 'client' });
    await social.record(a, share(a));
    clock.at = new Date(PRIME.getTime() + 7 * DAY - 1);
    const again = await refusal(social.record(a, share(a)));
    expect(again.code).toBe('already_shared');
    expect(again.message).toBe("You've already shared to X (Twitter) today. Try again tomorrow!");
    expect(again.details).toMatchObject({
      availableAgainAt: new Date(PRIME.getTime() + 7 * DAY).toISOString(),
    });
    // The other platform is free meanwhile (a day later: the daily cap is not in the way).
    clock.at = new Date(PRIME.getTime() + DAY + 1);
    await social.record(
      a,
      share(a, { platform: 'instagram', postUrl: 'https://www.instagram.com/p/WeekOne1/' }),
    );
    expect((await social.check(a)).availablePlatforms).toEqual({
      twitter: false,
      instagram: false,
      telegram: true,
    });
    clock.at = new Date(PRIME.getTime() + 7 * DAY + 1);
    expect((await social.check(a)).availablePlatforms).toEqual({
      twitter: true,
      instagram: false,
      telegram: true,
    });
    await social.record(a, share(a));
  });

  it('should let a post be claimed once across all accounts, in any spelling', async () => {
    const a = await insertAccount(t.db, { userType: 'client' });
    const b = await insertAccount(t.db, { userType: 'node' });
    await social.record(a, share(a, { postUrl: 'https://x.com/alice/status/777000777' }));
    const other = await refusal(
      social.record(
        b,
        share(b, { postUrl: 'https://www.twitter.com/Alice/status/777000777?s=20' }),
      ),
    );
    expect(other.code).toBe('post_already_claimed');
    // The refused share left nothing: b can still share to X.
    expect((await social.check(b)).availablePlatforms.twitter).toBe(true);
    const rows = await t.db.query(`SELECT 1 FROM social_shares WHERE account_uuid = $1`, [b]);
    expect(rows).toHaveLength(0);
  });

  it('should give a post claimed by two accounts at once to one of them', async () => {
    const accounts = await Promise.all(
      [1, 2, 3].map(() => insertAccount(t.db, { userType: 'client' })),
    );
    const spellings = [
      'https://x.com/a/status/4242424242',
      'https://twitter.com/b/status/4242424242',
      'https://mobile.twitter.com/c/status/4242424242?s=1',
    ];
    const results = await Promise.allSettled(
      accounts.map((a, i) => social.record(a, share(a, { postUrl: spellings[i] }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected')
        expect((r.reason as SocialException).code).toBe('post_already_claimed');
    }
    const rows = await t.db.query(`SELECT 1 FROM social_shares WHERE post_url = $1`, [
      'https://x.com/i/status/4242424242',
    ]);
    expect(rows).toHaveLength(1);
  });

  it('should decide two concurrent shares of one account one at a time', async () => {
    const a = await insertAccount(t.db, { userType: 'client' });
    const results = await Promise.allSettled([
      social.record(a, share(a)),
      social.record(a, share(a)),
      social.record(a, share(a)),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rows = await t.db.query(`SELECT 1 FROM social_shares WHERE account_uuid = $1`, [a]);
    expect(rows).toHaveLength(1);
  });

  it('should cap share rewards at 1 SSL per 24 hours', async () => {
    const a = await insertAccount(t.db, { userType: 'client' });
    await social.record(a, share(a));
    const capped = await refusal(
      social.record(
        a,
        share(a, { platform: 'instagram', postUrl: 'https://www.instagram.com/p/CapDay01/' }),
      ),
    );
    expect(capped.code).toBe('daily_cap_reached');
    // 0.1 SSL first, then prime time: 0.9 SSL is left of the cap.
    const b = await insertAccount(t.db, { userType: 'client' });
    clock.at = NORMAL;
    await social.record(b, share(b));
    clock.at = PRIME;
    const second = await social.record(
      b,
      share(b, { platform: 'instagram', postUrl: 'https://www.instagram.com/p/CapDay02/' }),
    );
    expect(second.pendingReward).toMatchObject({ amountMicro: '900000', isPrimeTime: true });
  });

  it('should refuse an unknown zone and a foreign URL with nothing written', async () => {
    const a = await insertAccount(t.db, { userType: 'client' });
    expect((await refusal(social.record(a, share(a, { timeZone: 'Mars/Olympus' })))).code).toBe(
      'time_zone_invalid',
    );
    expect(
      (
        await refusal(
          social.record(a, share(a, { postUrl: 'https://www.instagram.com/p/Foreign1/' })),
        )
      ).code,
    ).toBe('url_not_platform');
    const rows = await t.db.query(`SELECT 1 FROM social_shares WHERE account_uuid = $1`, [a]);
    expect(rows).toHaveLength(0);
  });
});

describe('ShareRewardsService.settleDue', () => {
  /** Two weeks on (a Wednesday, 12:00 UTC): the earlier tests' shares are all due by then. */
  const T0 = new Date(PRIME.getTime() + 14 * DAY);
  beforeEach(async () => {
    clock.at = T0;
    await payouts().settleDue();
  });

  it('should pay after 24 hours from the pool, once, to the wallet of the account type', async () => {
    const client = await insertAccount(t.db, { userType: 'client' });
    const operator = await insertAccount(t.db, { userType: 'node' });
    await social.record(client, share(client));
    await social.record(operator, share(operator));
    const poolBefore = await pool();

    clock.at = new Date(T0.getTime() + DAY - 1);
    expect(await payouts().settleDue()).toMatchObject({ paid: 0 });
    expect(await balance(client, 'client_wallet')).toBe(0n);

    clock.at = new Date(T0.getTime() + DAY);
    // Two runs at once and one after: each share is paid exactly once.
    const [first, second] = await Promise.all([payouts().settleDue(), payouts().settleDue()]);
    const third = await payouts().settleDue();
    expect(first.paid + second.paid + third.paid).toBe(2);
    expect(await balance(client, 'client_wallet')).toBe(1_000_000n);
    expect(await balance(operator, 'node_wallet')).toBe(1_000_000n);
    expect(await pool()).toBe(poolBefore - 2_000_000n);
    const refs = await t.db.query<{ code: string; values: Record<string, unknown> }>(
      `SELECT description_code AS code, description_values AS values FROM ledger_transactions
       WHERE type = 'social_reward' AND initiator_uuid IN ($1, $2)`,
      [client, operator],
    );
    expect(refs).toHaveLength(2);
    // Each reward names its code, platform and whether it was prime time.
    for (const ref of refs) {
      expect(ref.code).toBe('share_reward');
      expect(SHARE_PLATFORMS).toContain(ref.values.platform);
      expect(typeof ref.values.primeTime).toBe('boolean');
    }
    // The operator's reward is an operator reward: frozen 60 days from the payout; the client's
    // is available at once.
    const frozen = await t.db.query<{ kind: string; frozen_until: Date | null }>(
      `SELECT a.kind, e.frozen_until FROM ledger_entries e
         JOIN ledger_accounts a ON a.id = e.account_id
         JOIN ledger_transactions x ON x.id = e.transaction_id
       WHERE x.type = 'social_reward' AND a.owner_uuid IN ($1, $2)`,
      [client, operator],
    );
    expect(
      Object.fromEntries(frozen.map((row) => [row.kind, row.frozen_until?.toISOString() ?? null])),
    ).toEqual({
      client_wallet: null,
      node_wallet: new Date(T0.getTime() + DAY + 60 * DAY).toISOString(),
    });
    const check = await social.check(client);
    expect(check.pendingRewardMicro).toBe('0');
    expect(check.shares[0]).toMatchObject({ status: 'paid' });
  });

  describe('with SHARE_VERIFY_FETCH on, against a local HTTP server', () => {
    let server: http.Server;
    const gone = new Set<string>();
    const asked: string[] = [];
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        asked.push(req.url ?? '');
        if (req.url === '/moved') {
          res.writeHead(301, { location: '/i/status/1' }).end();
          return;
        }
        res.writeHead(gone.has(req.url ?? '') ? 404 : 200).end('post');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('should forfeit a post that answers 404 and pay one that is up', async () => {
      verify.enabled = true;
      verify.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const a = await insertAccount(t.db, { userType: 'client' });
      const b = await insertAccount(t.db, { userType: 'client' });
      await social.record(a, share(a, { postUrl: 'https://x.com/a/status/880001' }));
      await social.record(b, share(b, { postUrl: 'https://twitter.com/b/status/880002' }));
      gone.add('/i/status/880001');
      const poolBefore = await pool();
      clock.at = new Date(T0.getTime() + DAY);
      const outcome = await payouts().settleDue();
      expect(outcome).toMatchObject({ paid: 1, forfeited: 1, paidMicro: 1_000_000n });
      expect(asked).toEqual(expect.arrayContaining(['/i/status/880001', '/i/status/880002']));
      expect(await balance(a, 'client_wallet')).toBe(0n);
      expect(await balance(b, 'client_wallet')).toBe(1_000_000n);
      expect(await pool()).toBe(poolBefore - 1_000_000n);
      const rows = await t.db.query<{ status: string; verification: string }>(
        `SELECT status, verification FROM social_shares WHERE account_uuid = $1`,
        [a],
      );
      expect(rows).toEqual([{ status: 'forfeited', verification: 'gone' }]);
      // The forfeited post stays claimed.
      const c = await insertAccount(t.db, { userType: 'client' });
      clock.at = new Date(T0.getTime() + 2 * DAY);
      expect(
        (await refusal(social.record(c, share(c, { postUrl: 'https://x.com/c/status/880001' }))))
          .code,
      ).toBe('post_already_claimed');
    });
  });
});
