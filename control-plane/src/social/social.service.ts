import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type AvailablePlatforms,
  type CheckSharesResponse,
  type RecordShareRequest,
  type RecordShareResponse,
  type SharePlatform,
  type ShareSummary,
  SOCIAL_MESSAGES,
} from '@scn/proto';
import { AuthException } from '../auth/auth.exception';
import { CLOCK, type Clock } from '../common/clock';
import { sslNumber } from '../common/money';
import { TransactionRunner } from '../database/transaction-runner';
import { type ShareRow, SocialRepository } from './social.repository';
import { SocialException } from './social.exception';
import {
  canonicalTimeZone,
  DAILY_CAP_WINDOW_MS,
  SHARE_COOLDOWN_MS,
  SHARE_PENDING_MS,
  shareReward,
} from './share-rules';
import { normalizePostUrl } from './share-url';

const RECENT_SHARES = 20;

function summary(share: ShareRow): ShareSummary {
  return {
    id: share.id,
    platform: share.platform,
    postUrl: share.postUrl,
    rewardMicro: share.rewardMicro.toString(),
    isPrimeTime: share.isPrimeTime,
    status: share.status,
    sharedAt: share.sharedAt.toISOString(),
    paysAt: share.paysAt.toISOString(),
    availableAgainAt: new Date(share.sharedAt.getTime() + SHARE_COOLDOWN_MS).toISOString(),
  };
}

/** Which platforms the account may share to at `now` (one share per platform per 7 days). */
function availability(shares: readonly ShareRow[], now: Date): AvailablePlatforms {
  const since = now.getTime() - SHARE_COOLDOWN_MS;
  const used = (platform: SharePlatform) =>
    shares.some((s) => s.platform === platform && s.sharedAt.getTime() > since);
  return {
    twitter: !used('twitter'),
    instagram: !used('instagram'),
    telegram: !used('telegram'),
  };
}

/**
 * Share-and-earn (docs/product/states.md#market-and-account-states Share flow, docs/product/constants.md#market-prices-and-limits Share reward). The server decides
 * everything: the post URL must be an https post of the chosen platform, normalized so that one
 * post is one claim across all accounts (a unique index); one share per platform per 7 days and
 * at most 1 SSL per 24 hours per account, checked under a per-account lock in the transaction
 * that writes the share; the reward is computed from the server's clock in the stated IANA zone.
 * Nothing is paid here: the share is pending 24 hours (ShareRewardsJob pays or forfeits it).
 */
@Injectable()
export class SocialService {
  constructor(
    private readonly repository: SocialRepository,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check(accountUuid: string): Promise<CheckSharesResponse> {
    const now = this.clock.now();
    const recent = await this.repository.recentShares(accountUuid, RECENT_SHARES);
    const lastWeek = await this.repository.sharesSince(
      accountUuid,
      new Date(now.getTime() - SHARE_COOLDOWN_MS),
    );
    return {
      success: true,
      availablePlatforms: availability(lastWeek, now),
      pendingRewardMicro: (await this.repository.pendingMicro(accountUuid)).toString(),
      shares: recent.map(summary),
    };
  }

  /** Records a share of `accountUuid` (the session's own: the controller checked userId). */
  async record(accountUuid: string, body: RecordShareRequest): Promise<RecordShareResponse> {
    const timeZone = canonicalTimeZone(body.timeZone);
    if (!timeZone) throw new SocialException('time_zone_invalid');
    const post = normalizePostUrl(body.platform, body.postUrl);
    if (!post) throw SocialException.notPlatform(body.platform);

    return this.transactions.runRetrying(async (tx) => {
      await this.repository.lockAccount(tx, accountUuid);
      // Read after the lock: the time and the account's shares are those this share follows.
      const now = this.clock.now();
      const userType = await this.repository.accountType(tx, accountUuid);
      if (!userType) throw new AuthException('access_denied');
      const since = new Date(now.getTime() - Math.max(SHARE_COOLDOWN_MS, DAILY_CAP_WINDOW_MS));
      const shares = await this.repository.sharesSince(accountUuid, since, tx);

      const last = shares.find(
        (s) =>
          s.platform === body.platform && s.sharedAt.getTime() > now.getTime() - SHARE_COOLDOWN_MS,
      );
      if (last) {
        throw SocialException.alreadyShared(
          body.platform,
          new Date(last.sharedAt.getTime() + SHARE_COOLDOWN_MS),
        );
      }
      const dayStart = now.getTime() - DAILY_CAP_WINDOW_MS;
      const earnedToday = shares
        .filter((s) => s.status !== 'forfeited' && s.sharedAt.getTime() > dayStart)
        .reduce((sum, s) => sum + s.rewardMicro, 0n);
      const reward = shareReward(now, timeZone, earnedToday);
      if (reward.rewardMicro === 0n) throw new SocialException('daily_cap_reached');

      const share: ShareRow = {
        id: randomUUID(),
        accountUuid,
        platform: body.platform,
        postUrl: post.url,
        rewardMicro: reward.rewardMicro,
        isPrimeTime: reward.isPrimeTime,
        walletKind: userType === 'node' ? 'node_wallet' : 'client_wallet',
        status: 'pending',
        sharedAt: now,
        paysAt: new Date(now.getTime() + SHARE_PENDING_MS),
      };
      const inserted = await this.repository.insertShare(tx, {
        ...share,
        submittedUrl: body.postUrl,
        timeZone,
        localTime: reward.local.text,
      });
      if (!inserted) throw new SocialException('post_already_claimed');

      return {
        success: true,
        message: SOCIAL_MESSAGES.recorded(reward.isPrimeTime),
        pendingReward: {
          amount: sslNumber(reward.rewardMicro),
          amountMicro: reward.rewardMicro.toString(),
          isPrimeTime: reward.isPrimeTime,
          paysAt: share.paysAt.toISOString(),
        },
        share: summary(share),
        availablePlatforms: availability([share, ...shares], now),
      } satisfies RecordShareResponse;
    });
  }
}
