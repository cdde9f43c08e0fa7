import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { MailService } from '../mail/mail.service';
import { LedgerService, type PostRequest, walletKey } from '../wallet/ledger.service';
import { RewardEscrowRepository } from './reward-escrow.repository';
import { serverBannedMail } from './reward-mails';
import { escrowForfeit, escrowRelease } from './reward-payouts';

/** Escrows settled per database transaction; bans mailed per run. */
export const ESCROW_BATCH_SIZE = 1_000;
const NOTICES_PER_RUN = 200;

export interface EscrowOutcome {
  released: number;
  forfeited: number;
  releasedMicro: bigint;
  forfeitedMicro: bigint;
}

/**
 * The reward side of the reliability lifecycle (docs/product/states.md#subscription-and-reliability-states): a server's base
 * rewards earned below 95% wait in its escrow; when it is back at 95% or more (and not banned)
 * they go to its operator (frozen 60 days, like every operator reward); when it is banned, or
 * deleted, they return to the pool. Idempotent: each escrow is locked and emptied of exactly its
 * balance, so a second run (or a second replica) finds nothing left. The operator is mailed once
 * per ban.
 */
@Injectable()
export class RewardEscrowService {
  private readonly logger = new Logger('RewardEscrowService');

  constructor(
    private readonly repository: RewardEscrowRepository,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionRunner,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async settle(batchSize = ESCROW_BATCH_SIZE): Promise<EscrowOutcome> {
    const outcome: EscrowOutcome = {
      released: 0,
      forfeited: 0,
      releasedMicro: 0n,
      forfeitedMicro: 0n,
    };
    let after: string | null = null;
    for (;;) {
      const last: string | null = await this.transactions.run(async (tx) => {
        const now = this.clock.now();
        const escrows = await this.repository.escrowsToSettle(tx, after, batchSize);
        if (escrows.length === 0) return null;
        const ids = escrows.map((e) => e.serverId);
        // The balance moved is the one read under lock: a concurrent run leaves 0 here.
        const locked = await this.ledger.lockWallets(tx, 'reward_escrow', ids);
        const requests: PostRequest[] = [];
        for (const escrow of escrows) {
          const balanceMicro = locked.get(walletKey('reward_escrow', escrow.serverId)) ?? 0n;
          if (balanceMicro <= 0n) continue;
          if (escrow.action === 'release') {
            requests.push(
              escrowRelease({ ...escrow, operatorUuid: escrow.operatorUuid!, balanceMicro }, now),
            );
            outcome.released += 1;
            outcome.releasedMicro += balanceMicro;
          } else {
            requests.push(
              escrowForfeit(
                { serverId: escrow.serverId, balanceMicro },
                escrow.reason === 'deleted' ? 'deleted' : 'banned',
              ),
            );
            outcome.forfeited += 1;
            outcome.forfeitedMicro += balanceMicro;
          }
        }
        await this.ledger.postOnLockedWallets(tx, requests, locked);
        return escrows.length < batchSize ? null : ids[ids.length - 1]!;
      });
      if (last === null) break;
      after = last;
    }
    return outcome;
  }

  /** Mails each new ban to its operator, once; answers how many were sent. */
  async notifyBans(): Promise<number> {
    const notices = await this.repository.claimBanNotices(this.clock.now(), NOTICES_PER_RUN);
    let sent = 0;
    for (const notice of notices) {
      try {
        await this.mail.send(serverBannedMail(notice.email, notice, this.config.publicUrl));
        sent += 1;
      } catch (error) {
        this.logger.warn(
          { err: error, serverId: notice.serverId },
          'Ban e-mail failed; retrying later',
        );
        await this.repository.unclaimBanNotice(notice.serverId, notice.bannedAt);
      }
    }
    return sent;
  }
}
