import { Inject, Injectable } from '@nestjs/common';
import {
  type AutoStakeResponse,
  STAKING_MESSAGES,
  STAKING_ROUTES,
  type StakeMoveResponse,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { IdempotencyService } from '../wallet/idempotency.service';
import { ListingLocksRepository } from '../market/listing-locks.repository';
import { LedgerService } from '../wallet/ledger.service';
import { WalletBalancesService } from '../wallet/wallet-balances.service';
import { StakingException } from './staking.exception';
import { StakingRepository } from './staking.repository';
import { stakeLock, stakeLockView, stakePostings, unstakePostings } from './staking-rules';

type Move = 'stake' | 'unstake';

/**
 * The operator's stake: stake from the node wallet's available balance, unstake
 * what is past its lock, the automatic stake of each payout. Each move is one ledger transaction
 * in one database transaction with its Idempotency-Key, decided under the wallets' locks, so
 * concurrent calls cannot move the same money twice.
 */
@Injectable()
export class StakingService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly repository: StakingRepository,
    private readonly ledger: LedgerService,
    private readonly balances: WalletBalancesService,
    private readonly idempotency: IdempotencyService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly listings: ListingLocksRepository,
  ) {}

  /**
   * Moves `amountMicro` from the node wallet to the stake, locked ECONOMICS.stakeLockDays: only
   * out of the available balance (the balance less its frozen rewards, docs/product/records.md#dashboard-records), 402 beyond.
   */
  stake(
    ownerUuid: string,
    amountMicro: bigint,
    key: string | undefined,
  ): Promise<StakeMoveResponse> {
    return this.move('stake', ownerUuid, amountMicro, key, async (tx, now) => {
      const { availableMicro: available } = await this.ledger.lockAvailable(
        tx,
        'node_wallet',
        ownerUuid,
        now,
      );
      if (amountMicro > available) throw StakingException.availableTooLow(amountMicro, available);
      return this.ledger.lockAndPost(tx, {
        type: 'stake',
        postings: stakePostings(ownerUuid, amountMicro, now),
        initiatorUuid: ownerUuid,
        description: 'Staked from the node wallet',
        describedAs: { code: 'staked', values: {} },
      });
    });
  }

  /**
   * Moves `amountMicro` of the stake back to the node wallet: only stakes past their lock, oldest
   * first; 409 with the next unlock when less is unlocked.
   */
  unstake(
    ownerUuid: string,
    amountMicro: bigint,
    key: string | undefined,
  ): Promise<StakeMoveResponse> {
    return this.move('unstake', ownerUuid, amountMicro, key, async (tx, now) => {
      const stake = await this.ledger.lockWallet(tx, 'stake', ownerUuid);
      const lots = await this.balances.frozenLots('stake', ownerUuid, now, tx);
      const view = stakeLockView(stake.balanceMicro, lots.map(stakeLock));
      if (amountMicro > view.unlockedMicro) {
        throw StakingException.locked(amountMicro, view.unlockedMicro, view.locks[0] ?? null);
      }
      return this.ledger.lockAndPost(tx, {
        type: 'unstake',
        postings: unstakePostings(ownerUuid, amountMicro),
        initiatorUuid: ownerUuid,
        description: 'Unstaked to the node wallet',
        describedAs: { code: 'unstaked', values: {} },
      });
    });
  }

  /** docs/product/roles.md#who-may-use-the-dashboards: the automatic stake of each payout, 0 to 100%. */
  async setAutoStake(ownerUuid: string, percent: number): Promise<AutoStakeResponse> {
    await this.repository.setAutoStakePercent(ownerUuid, percent, this.clock.now());
    return {
      success: true,
      message: STAKING_MESSAGES.autoStakeSaved(percent),
      autoStakePercent: percent,
    };
  }

  /**
   * One move: the operator's listings are locked first (ListingLocksRepository),
   * then `write` locks the wallet it debits, checks the rule and posts. Run again when PostgreSQL
   * rolls it back for a deadlock; a replayed key answers the first move's answer.
   */
  private async move(
    type: Move,
    ownerUuid: string,
    amountMicro: bigint,
    key: string | undefined,
    write: (tx: Transaction, now: Date) => Promise<string>,
  ): Promise<StakeMoveResponse> {
    const route =
      type === 'stake' ? STAKING_ROUTES.stake(ownerUuid) : STAKING_ROUTES.unstake(ownerUuid);
    const result = await this.transactions.retrying(() =>
      this.idempotency.once(
        ownerUuid,
        key,
        { route, body: { amountMicro: amountMicro.toString() } },
        async (tx): Promise<StakeMoveResponse> => {
          const now = this.clock.now();
          await this.listings.lockOwnersListings(tx, [ownerUuid]);
          const transactionId = await write(tx, now);
          const after = await this.balances.balances(ownerUuid, ['node_wallet', 'stake'], tx);
          return {
            success: true,
            message:
              type === 'stake'
                ? STAKING_MESSAGES.staked(amountMicro)
                : STAKING_MESSAGES.unstaked(amountMicro),
            transactionId,
            amountMicro: amountMicro.toString(),
            stakeMicro: after.get('stake')!.toString(),
            nodeWalletMicro: after.get('node_wallet')!.toString(),
          };
        },
      ),
    );
    return result.body;
  }
}
