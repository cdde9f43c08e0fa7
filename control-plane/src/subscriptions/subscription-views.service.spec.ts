import { ServerReplacementsRepository } from './server-replacements.repository';
import {
  NOW,
  OWNER,
  SUBSCRIPTION_ID,
  subscribableServer,
  subscriptionRecord,
} from '../../test/support/subscription-fixtures';
import type { AppConfig } from '../config/app-config';
import type { PremiumServers } from '../market/premium-servers';
import type { ServerDropsRepository } from './server-drops.repository';
import { SubscriptionViewsService } from './subscription-views.service';
import type { SubscriptionRecord, SubscriptionsRepository } from './subscriptions.repository';

const A = 'aaaa0000-0000-4000-8000-000000000001';
const config = {
  appSecret: 'b'.repeat(32),
  publicUrl: 'https://scn.test',
  launchPeriodEndsAt: new Date('2026-01-01T00:00:00Z'),
} as AppConfig;

/** The service over repositories that hold `records` (each on server A). */
function viewsWith(records: SubscriptionRecord[]) {
  const owned = (owner: string, id: string) =>
    records.find((record) => record.ownerUuid === owner && record.id === id) ?? null;
  const repository = {
    findOwned: (owner: string, id: string) => Promise.resolve(owned(owner, id)),
    findByUrlHash: (hash: string) =>
      Promise.resolve(records.find((record) => record.urlTokenHash === hash) ?? null),
    listOwned: (owner: string, statuses: string[]) =>
      Promise.resolve(
        records.filter((record) => record.ownerUuid === owner && statuses.includes(record.status)),
      ),
    serversOf: (ids: string[]) =>
      Promise.resolve(new Map(ids.map((id) => [id, [subscribableServer(A)]]))),
    pauseStarts: (ids: string[]) => Promise.resolve(new Map(ids.map((id) => [id, []]))),
  } as unknown as SubscriptionsRepository;
  const drops = {
    listFor: (ids: string[]) => Promise.resolve(new Map(ids.map((id) => [id, []]))),
  } as unknown as ServerDropsRepository;
  return new SubscriptionViewsService(
    repository,
    drops,
    {
      listFor: (ids: string[]) => Promise.resolve(new Map(ids.map((id) => [id, []]))),
    } as unknown as ServerReplacementsRepository,
    { operatorEmail: null } as PremiumServers,
    { now: () => NOW },
    config,
  );
}

/** A subscription whose URL secret was issued by `views` (sealed with the same APP_SECRET). */
function withUrl(views: SubscriptionViewsService, changes: Partial<SubscriptionRecord> = {}) {
  const url = views.issueUrl();
  const record = subscriptionRecord({
    urlTokenHash: url.hash,
    urlTokenSealed: url.sealed,
    ...changes,
  });
  return { url, record };
}

const decoded = (content: string) => Buffer.from(content, 'base64').toString('utf8').split('\n');

describe('SubscriptionViewsService', () => {
  it('should show the subscription URL it issued', async () => {
    const issuer = viewsWith([]);
    const { url, record } = withUrl(issuer);
    const [listed] = await viewsWith([record]).listActive(OWNER);
    expect(listed!.subscriptionUrl).toBe(url.url);
    expect(url.url).toBe(`https://scn.test/sub/${url.secret}`);
  });

  it('should list active and paused subscriptions apart', async () => {
    const views = viewsWith([
      subscriptionRecord(),
      subscriptionRecord({ id: 'e1', status: 'expired' }),
      subscriptionRecord({ id: 'p1', status: 'paused', pauseReason: 'user', pausedAt: NOW }),
    ]);
    expect((await views.listActive(OWNER)).map((s) => s.id)).toEqual([SUBSCRIPTION_ID]);
    expect((await views.listPaused(OWNER)).map((s) => s.id)).toEqual(['e1', 'p1']);
  });

  it('should give the files by name, and 404 for another name, id or owner', async () => {
    const views = viewsWith([subscriptionRecord()]);
    const group = await views.file(OWNER, `group_${SUBSCRIPTION_ID}.txt`);
    const raw = await views.file(
      OWNER,
      `RAW_${SUBSCRIPTION_ID.toUpperCase()}.txt`,
      SUBSCRIPTION_ID,
    );
    expect(group.fileName).toBe(`group_${SUBSCRIPTION_ID}.txt`);
    expect(raw.fileName).toBe(`raw_${SUBSCRIPTION_ID}.txt`);
    expect(decoded(group.content)).toEqual([raw.content.trimEnd()]);
    for (const [owner, name, id] of [
      [OWNER, `other_${SUBSCRIPTION_ID}.txt`, undefined],
      [OWNER, `group_${SUBSCRIPTION_ID}.txt`, A],
      [A, `group_${SUBSCRIPTION_ID}.txt`, undefined],
    ] as const) {
      await expect(views.file(owner, name, id)).rejects.toMatchObject({ code: 'file_not_found' });
    }
  });

  it('should draw a QR code per server and none for a URL it cannot show', async () => {
    const views = viewsWith([subscriptionRecord()]);
    const codes = await views.qrCodesOf(OWNER, SUBSCRIPTION_ID);
    expect(codes.groupQrCode).toBeNull();
    expect(codes.serverQrCodes).toHaveLength(1);
    expect(codes.serverQrCodes[0]!.qrCode).toMatch(/^data:image\/png;base64,/);
    await expect(views.qrCodesOf(A, SUBSCRIPTION_ID)).rejects.toMatchObject({ code: 'not_found' });
  });
});
