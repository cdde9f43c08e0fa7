import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { TransactionDescription } from '@scn/proto';
import type { Transaction } from '../database/transaction-runner';
import type { LedgerAccountKind } from './entities/ledger-account.entity';
import type { LedgerTransactionType } from './entities/ledger-transaction.entity';
import { availableBalance } from './wallet-balance';
import { WalletException } from './wallet.exception';
import { type NewTransaction, SYSTEM_OWNER, WalletRepository } from './wallet.repository';

type NewEntry = { accountId: string; amountMicro: bigint; frozenUntil: Date | null };

/** Owned accounts (a user's wallet, an operator's stake, a server's reward escrow): locked and checked when debited. */
export type WalletKind = 'client_wallet' | 'node_wallet' | 'stake' | 'reward_escrow';
export type SystemAccountKind = 'external' | 'platform_revenue' | 'burn' | 'supply' | 'reward_pool';

/** The key of a wallet in lockAndPostTogether's balances and lockWallets' answer. */
export function walletKey(wallet: WalletKind, ownerUuid: string): string {
  return `${wallet}:${ownerUuid}`;
}

/** Which account an amount moves on: a user's wallet, or one of the system accounts. */
export type AccountRef = { wallet: WalletKind; ownerUuid: string } | { system: SystemAccountKind };

export interface Posting {
  account: AccountRef;
  /** Signed micro-SSL: negative debits, positive credits. Never zero. */
  amountMicro: bigint;
  /** docs/product/constants.md#market-prices-and-limits: operator rewards are frozen 60 days. */
  frozenUntil?: Date | null;
}

export interface PostRequest {
  type: LedgerTransactionType;
  postings: readonly Posting[];
  initiatorUuid?: string | null;
  subscriptionId?: string | null;
  serverCount?: number | null;
  duration?: string | null;
  /** English words, for logs and older clients (at most 200 characters). */
  description?: string | null;
  /**
   * What the movement is as a code and its values: the portal words it in the
   * reader's language. Every writer passes one (rows from before the codes have none).
   */
  describedAs: TransactionDescription;
  /** What makes this movement happen once (an on-chain signature, a billing period). */
  externalRef?: string | null;
}

/** A ledger transaction with its id, as rows (JSON) for a database function that writes it. */
export interface PlannedTransaction extends NewTransaction {
  id: string;
  entries: Array<{
    kind: LedgerAccountKind;
    owner: string;
    /** Resolved ahead (postOnLockedWallets): ledger_post then looks nothing up. */
    accountId?: string;
    amountMicro: string;
    frozenUntil: string | null;
  }>;
}

/** The transaction row of a movement (what is not its entries). */
function transactionOf(request: PostRequest): NewTransaction {
  return {
    type: request.type,
    initiatorUuid: request.initiatorUuid ?? null,
    subscriptionId: request.subscriptionId ?? null,
    serverCount: request.serverCount ?? null,
    duration: request.duration ?? null,
    description: request.description ?? null,
    descriptionCode: request.describedAs.code,
    descriptionValues: request.describedAs.values,
    externalRef: request.externalRef ?? null,
  };
}

function assertBalanced(request: PostRequest): void {
  if (request.postings.length < 2) throw new Error('a ledger transaction needs two postings');
  let sum = 0n;
  for (const posting of request.postings) {
    if (posting.amountMicro === 0n) throw new Error('a ledger posting cannot be zero');
    sum += posting.amountMicro;
  }
  if (sum !== 0n) throw new Error(`ledger postings must sum to zero (sum ${sum})`);
}

/**
 * The ledger's writer (with `subscription_purchase`, the SQL function that writes the movements
 * `planUnwritten` prepares for a purchase). Every movement is one transaction whose postings sum
 * to zero, written inside the caller's database transaction (never one of its own) together with
 * the thing it pays for, so there is no state in which money moved and the purchase did not
 * happen (or the reverse). Each entry point's name says what it expects of its caller:
 *
 * - `lockAndPost`: one movement; the ledger locks the wallets it debits and checks them.
 * - `lockAndPostTogether`: several movements as one (a payment and the rewards it pays); the
 *   ledger locks every debited wallet and checks each covers its total debit.
 * - `postOnLockedWallets`: a batch of many (a job paying many owners); the caller has locked
 *   every debited wallet first with `lockWallets` and passes the balances it read.
 * - `planUnwritten`: checked movements with ids, not written; the caller's SQL function writes
 *   them in its own statement and owes the lock and the balance check.
 *
 * Overspending is prevented twice: every writer refuses a debit beyond the locked balance with
 * insufficient_balance (402, with balance and required) before writing; and a CHECK on the
 * wallet row makes the database refuse a negative balance even if a caller did not lock.
 */
@Injectable()
export class LedgerService {
  constructor(private readonly repository: WalletRepository) {}

  /**
   * Locks the wallet (creating it if missing) until the transaction ends and returns its
   * balance: read the balance this way before deciding anything that depends on it.
   */
  lockWallet(
    manager: Transaction,
    wallet: WalletKind,
    ownerUuid: string,
  ): Promise<{ id: string; balanceMicro: bigint }> {
    return this.repository.lockAccount(manager, wallet, ownerUuid);
  }

  /**
   * `lockWallet`, and what of the balance is not frozen (docs/product/constants.md#market-prices-and-limits: operator rewards are frozen
   * 60 days): a frozen reward partly spent already never counts for more than the balance.
   */
  async lockAvailable(
    manager: Transaction,
    wallet: WalletKind,
    ownerUuid: string,
    now: Date,
  ): Promise<{ balanceMicro: bigint; frozenMicro: bigint; availableMicro: bigint }> {
    const locked = await this.repository.lockAccount(manager, wallet, ownerUuid);
    const lots = await this.repository.frozenLots(locked.id, now, manager);
    return { balanceMicro: locked.balanceMicro, ...availableBalance(locked.balanceMicro, lots) };
  }

  /** Creates the wallet if missing; returns its id. */
  ensureWallet(wallet: WalletKind, ownerUuid: string): Promise<string> {
    return this.repository.ensureAccount(wallet, ownerUuid);
  }

  /**
   * Writes one balanced movement inside the caller's transaction `manager` (never its own):
   * locks the wallets it debits until that transaction ends and refuses a debit beyond their
   * balance before writing. Returns the movement's id.
   */
  async lockAndPost(manager: Transaction, request: PostRequest): Promise<string> {
    const { transactionIds } = await this.lockAndPostTogether(manager, [request]);
    return transactionIds[0]!;
  }

  /**
   * Checks movements and gives them ids, and writes nothing: the rows are for a database
   * function that writes them in its own statement inside the caller's transaction
   * (`subscription_purchase`), which owes what the other entry points do here: lock the debited
   * wallet, check it covers the debit and insert the entries in account order.
   */
  planUnwritten(requests: readonly PostRequest[]): PlannedTransaction[] {
    requests.forEach(assertBalanced);
    return requests.map((request) => ({
      id: randomUUID(),
      ...transactionOf(request),
      entries: request.postings.map(({ account, amountMicro, frozenUntil }) => ({
        kind: 'wallet' in account ? account.wallet : account.system,
        owner: 'wallet' in account ? account.ownerUuid : SYSTEM_OWNER,
        amountMicro: amountMicro.toString(),
        frozenUntil: frozenUntil?.toISOString() ?? null,
      })),
    }));
  }

  /**
   * Locks `wallet` accounts of many owners at once (in id order) until the transaction ends;
   * answers their balances by walletKey, for `postOnLockedWallets`. Missing accounts hold
   * nothing.
   */
  async lockWallets(
    manager: Transaction,
    wallet: WalletKind,
    owners: readonly string[],
  ): Promise<Map<string, bigint>> {
    const byOwner = await this.repository.lockAccounts(manager, wallet, owners);
    return new Map([...byOwner].map(([owner, balance]) => [walletKey(wallet, owner), balance]));
  }

  /**
   * Writes many balanced movements inside the caller's transaction `manager` in one statement
   * (`ledger_post`), for jobs that pay many owners at once (the monthly rewards, escrow
   * releases): no query per posting, and no lock taken here. The caller must have locked every
   * wallet the batch debits in this transaction (`locked`, from lockWallets); a debit of an
   * account not locked, or beyond its balance, is refused before anything is written. Credits
   * need no lock. Answers the transactions' ids, in order.
   */
  async postOnLockedWallets(
    manager: Transaction,
    requests: readonly PostRequest[],
    locked: ReadonlyMap<string, bigint> = new Map(),
  ): Promise<string[]> {
    if (requests.length === 0) return [];
    const planned = this.planUnwritten(requests);
    const debits = new Map<string, bigint>();
    for (const request of requests) {
      for (const { account, amountMicro } of request.postings) {
        if (!('wallet' in account) || amountMicro > 0n) continue;
        const key = walletKey(account.wallet, account.ownerUuid);
        debits.set(key, (debits.get(key) ?? 0n) - amountMicro);
      }
    }
    for (const [key, debit] of debits) {
      const balance = locked.get(key);
      if (balance === undefined) {
        throw new Error(`postOnLockedWallets: ${key} is debited but not locked`);
      }
      if (balance < debit) {
        throw new WalletException('insufficient_balance', {
          balanceMicro: balance,
          requiredMicro: debit,
        });
      }
    }
    // Every account's id in two statements, not a lookup per entry inside ledger_post.
    const ids = await this.repository.accountIds(
      manager,
      planned.flatMap((transaction) => transaction.entries),
    );
    for (const transaction of planned) {
      for (const entry of transaction.entries)
        entry.accountId = ids.get(`${entry.kind}:${entry.owner}`);
    }
    await this.repository.insertPlanned(manager, planned);
    return planned.map((transaction) => transaction.id);
  }

  /**
   * Writes several balanced movements together (e.g. a payment and the rewards it pays) inside
   * the caller's transaction `manager`, in one statement. Each wallet debited by any of them is
   * locked here (in key order) until that transaction ends and must cover its total debit;
   * answers the ids and the balances of the debited wallets after the movements.
   */
  async lockAndPostTogether(
    manager: Transaction,
    requests: readonly PostRequest[],
  ): Promise<{ transactionIds: string[]; balancesAfterMicro: Map<string, bigint> }> {
    requests.forEach(assertBalanced);

    // Debited wallets first, locked in key order, so that the balance check below is exact
    // and two payments cannot both spend the same balance. Credits to a debited wallet in the
    // same call do not count towards covering its debits.
    const debits = new Map<string, { ownerUuid: string; wallet: WalletKind; amount: bigint }>();
    const net = new Map<string, bigint>();
    for (const request of requests) {
      for (const { account, amountMicro } of request.postings) {
        if (!('wallet' in account)) continue;
        const key = walletKey(account.wallet, account.ownerUuid);
        net.set(key, (net.get(key) ?? 0n) + amountMicro);
        if (amountMicro > 0n) continue;
        const entry = debits.get(key) ?? { ...account, amount: 0n };
        entry.amount += -amountMicro;
        debits.set(key, entry);
      }
    }
    const balancesAfterMicro = new Map<string, bigint>();
    for (const key of [...debits.keys()].sort()) {
      const debit = debits.get(key)!;
      const locked = await this.repository.lockAccount(manager, debit.wallet, debit.ownerUuid);
      if (locked.balanceMicro < debit.amount) {
        throw new WalletException('insufficient_balance', {
          balanceMicro: locked.balanceMicro,
          requiredMicro: debit.amount,
        });
      }
      balancesAfterMicro.set(key, locked.balanceMicro + net.get(key)!);
    }

    // One query at a time on the transaction's connection (accountId reads only when an id is
    // not remembered yet): a connection runs one statement at a time anyway.
    const transactions: Array<{ transaction: NewTransaction; entries: NewEntry[] }> = [];
    for (const request of requests) {
      const entries: NewEntry[] = [];
      for (const { account, amountMicro, frozenUntil } of request.postings) {
        const accountId =
          'wallet' in account
            ? await this.repository.accountId(manager, account.wallet, account.ownerUuid)
            : await this.repository.accountId(manager, account.system, SYSTEM_OWNER);
        entries.push({ accountId, amountMicro, frozenUntil: frozenUntil ?? null });
      }
      transactions.push({
        transaction: transactionOf(request),
        entries,
      });
    }
    const transactionIds = await this.repository.insertTransactions(manager, transactions);
    return { transactionIds, balancesAfterMicro };
  }
}
