import { Inject, Injectable } from '@nestjs/common';
import { SHARE_PLATFORM_NAMES } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { rewardFrozenUntil } from '../rewards/reward-payouts';
import { LedgerService } from '../wallet/ledger.service';
import type { ShareVerification } from './entities/social-share.entity';
import { type ShareRow, SocialRepository } from './social.repository';
import { checkPost, verifyTarget } from './share-verifier';
import { normalizePostUrl } from './share-url';

/** Shares settled per read of the due list. */
export const SHARE_BATCH_SIZE = 100;

export interface ShareSettleOutcome {
  paid: number;
  forfeited: number;
  paidMicro: bigint;
}

/** The ledger's once-only key of a share's reward. */
export function shareRewardRef(shareId: string): string {
  return `social_reward:${shareId}`;
}

/**
 * Pays share rewards whose 24 hours have passed: from the reward pool to the
 * sharer's wallet (client or node, as the account was when it shared), one ledger transaction per
 * share keyed `social_reward:<id>`, in the transaction that marks the share paid. Each share is
 * locked and must still be pending, so a second run (or replica) pays nothing twice. With
 * SHARE_VERIFY_FETCH on, the post is fetched first and a 404 or 410 forfeits the reward.
 */
@Injectable()
export class ShareRewardsService {
  constructor(
    private readonly repository: SocialRepository,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async settleDue(batchSize = SHARE_BATCH_SIZE): Promise<ShareSettleOutcome> {
    const outcome: ShareSettleOutcome = { paid: 0, forfeited: 0, paidMicro: 0n };
    const seen = new Set<string>();
    for (;;) {
      const due = (await this.repository.dueShares(this.clock.now(), batchSize)).filter(
        (share) => !seen.has(share.id),
      );
      if (due.length === 0) break;
      for (const share of due) {
        seen.add(share.id);
        const verification = await this.verify(share);
        const settled = await this.settle(share.id, verification);
        if (settled === 'paid') {
          outcome.paid += 1;
          outcome.paidMicro += share.rewardMicro;
        } else if (settled === 'forfeited') outcome.forfeited += 1;
      }
    }
    return outcome;
  }

  /** What the post's URL answers now (`skipped` with SHARE_VERIFY_FETCH off). */
  private async verify(share: ShareRow): Promise<ShareVerification> {
    const settings = this.config.shareVerify;
    if (!settings.enabled) return 'skipped';
    const post = normalizePostUrl(share.platform, share.postUrl);
    if (!post) return 'unknown';
    return checkPost(verifyTarget(post.url, post.path, settings.baseUrl), settings);
  }

  private settle(
    id: string,
    verification: ShareVerification,
  ): Promise<'paid' | 'forfeited' | null> {
    return this.transactions.runRetrying(async (tx) => {
      const share = await this.repository.lockPending(tx, id);
      if (!share) return null;
      const at = this.clock.now();
      if (verification === 'gone') {
        await this.repository.settle(tx, id, {
          status: 'forfeited',
          verification,
          ledgerTransactionId: null,
          at,
        });
        return 'forfeited';
      }
      const transactionId = await this.ledger.lockAndPost(tx, {
        type: 'social_reward',
        postings: [
          { account: { system: 'reward_pool' }, amountMicro: -share.rewardMicro },
          {
            account: { wallet: share.walletKind, ownerUuid: share.accountUuid },
            amountMicro: share.rewardMicro,
            // An operator's share reward is an operator reward (the ad bonus line), frozen 60 days
            // like every other (docs/product/constants.md#market-prices-and-limits); a client's is theirs at once.
            ...(share.walletKind === 'node_wallet' ? { frozenUntil: rewardFrozenUntil(at) } : {}),
          },
        ],
        initiatorUuid: share.accountUuid,
        description: `Share reward (${SHARE_PLATFORM_NAMES[share.platform]}${share.isPrimeTime ? ', prime time' : ''})`,
        describedAs: {
          code: 'share_reward',
          values: { platform: share.platform, primeTime: share.isPrimeTime },
        },
        externalRef: shareRewardRef(share.id),
      });
      await this.repository.settle(tx, id, {
        status: 'paid',
        verification,
        ledgerTransactionId: transactionId,
        at,
      });
      return 'paid';
    });
  }
}
