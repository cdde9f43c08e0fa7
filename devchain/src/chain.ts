import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { getBase58Decoder, getTransactionDecoder, type Address } from '@solana/kit';
import {
  Keypair,
  type PublicKey,
  SystemProgram,
  Transaction,
  VersionedTransaction,
  type VersionedMessage,
} from '@solana/web3.js';
import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import { describeTransaction, restoreRecord, saveRecord, type SavedChain } from './chain-state';
import {
  MINT_SIZE,
  TEST_TOKENS,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  createMintInstructions,
  readMintDecimals,
  readTokenAccount,
  testMintKeypair,
  uiTokenAmount,
  type TestToken,
} from './spl-token';
import {
  landsOnChain,
  outcomeOf,
  transactionErrorJson,
  type TransactionErrorJson,
} from './transaction-error';

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** What a real leader keeps of a transaction that landed in a block (success or failure). */
export interface TransactionRecord {
  signature: string;
  slot: number;
  blockTime: number;
  err: TransactionErrorJson | null;
  signatures: string[];
  /** The signed transaction as sent (getTransaction with base64/base58 encoding). */
  wire: Uint8Array;
  message: VersionedMessage;
  accountKeys: string[];
  preBalances: number[];
  postBalances: number[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  fee: number;
  logMessages: string[];
  computeUnitsConsumed: number;
}

/** A token account among a transaction's keys (meta.pre/postTokenBalances of real nodes). */
export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: ReturnType<typeof uiTokenAmount>;
}

export type SendResult =
  | { landed: true; record: TransactionRecord }
  | { landed: false; signature: string; err: TransactionErrorJson };

export interface SimulationResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: number;
}

export class TransactionRejected extends Error {
  constructor(
    readonly reason: 'deserialize' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

/** Real clusters: a blockhash can be used for 150 blocks (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_SLOTS = 150;
export const SLOTS_PER_EPOCH = 432_000;
const LAMPORTS_PER_SIGNATURE = 5000;
const FAUCET_LAMPORTS = 500_000_000_000_000n; // 500,000 SOL: under 2^53, so JSON numbers stay exact
const base58 = getBase58Decoder();

const hashOf = (...parts: string[]): string =>
  base58.decode(createHash('sha256').update(parts.join('/')).digest());

/**
 * The chain: litesvm (the Solana runtime, executing real signed transactions with real balances)
 * plus what litesvm leaves to a validator: slots advancing on a timer, blockhashes per slot that
 * expire after 150 slots, blockTime, the history of landed transactions and the commitment of
 * each (processed when executed, confirmed one slot later, finalized `finalizeAfterSlots` later).
 */
const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM_ID.toBase58(), TOKEN_2022_PROGRAM_ID.toBase58()]);

/** A token account: SPL Token's 165 bytes, or Token-2022's with its account-type byte (2). */
function isTokenAccount(program: string, data: Uint8Array): boolean {
  if (program === TOKEN_PROGRAM_ID.toBase58()) return data.length === TOKEN_ACCOUNT_SIZE;
  if (program !== TOKEN_2022_PROGRAM_ID.toBase58()) return false;
  return (
    data.length === TOKEN_ACCOUNT_SIZE ||
    (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 2)
  );
}

export class Chain extends EventEmitter {
  readonly genesisHash: string;
  readonly faucet: Keypair;
  private readonly svm: LiteSVM;
  private readonly blockhashes = new Map<string, number>();
  private readonly records = new Map<string, TransactionRecord>();
  /** Landed transactions in execution order (getSignaturesForAddress reads it backwards). */
  private readonly history: TransactionRecord[] = [];
  /** The same, by the slot whose block holds them (getBlock). */
  private readonly bySlot = new Map<number, TransactionRecord[]>();
  /** Every SPL token account a landed transaction touched (getTokenAccountsByOwner reads it). */
  private readonly tokenAccounts = new Set<string>();
  private currentSlot = 0;
  private timer?: NodeJS.Timeout;

  /** A new chain, or the one `snapshot()` saved (its slot, accounts, history and faucet). */
  constructor(
    readonly finalizeAfterSlots: number,
    saved?: SavedChain,
    /** The wall clock of blockTime and the runtime's Clock (ms since the epoch). */
    private readonly now: () => number = Date.now,
  ) {
    super();
    if (saved) {
      this.genesisHash = saved.genesisHash;
      this.faucet = Keypair.fromSecretKey(Uint8Array.from(saved.faucetSecretKey));
      this.svm = LiteSVM.fromBytes(Buffer.from(saved.svm, 'base64')).withBlockhashCheck(false);
      for (const record of saved.records.map(restoreRecord)) {
        this.records.set(record.signature, record);
        this.remember(record);
      }
      // The blockhashes of the last 150 slots stay valid across a restart, as on a cluster.
      for (let slot = Math.max(0, saved.slot - BLOCKHASH_VALID_SLOTS); slot <= saved.slot; slot++)
        this.blockhashes.set(hashOf(this.genesisHash, String(slot)), slot);
      this.enterSlot(saved.slot + 1);
      return;
    }
    this.genesisHash = base58.decode(randomBytes(32));
    this.faucet = Keypair.generate();
    this.svm = new LiteSVM().withBlockhashCheck(false);
    this.svm.setAccount({
      address: this.faucet.publicKey.toBase58() as Address,
      lamports: FAUCET_LAMPORTS as never,
      programAddress: SystemProgram.programId.toBase58() as Address,
      data: new Uint8Array(),
      executable: false,
      space: 0n,
    });
    this.enterSlot(0);
  }

  snapshot(): SavedChain {
    return {
      version: 1,
      genesisHash: this.genesisHash,
      slot: this.currentSlot,
      faucetSecretKey: Array.from(this.faucet.secretKey),
      svm: Buffer.from(this.svm.toBytes()).toString('base64'),
      records: this.history.map(saveRecord),
    };
  }

  start(slotMs: number): void {
    this.timer = setInterval(() => this.enterSlot(this.currentSlot + 1), slotMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Moves to the next slot now (tests use it instead of waiting for the timer). */
  advance(slots = 1): void {
    for (let i = 0; i < slots; i++) this.enterSlot(this.currentSlot + 1);
  }

  private enterSlot(slot: number): void {
    this.currentSlot = slot;
    this.blockhashes.set(hashOf(this.genesisHash, String(slot)), slot);
    for (const [hash, at] of this.blockhashes)
      if (slot - at > BLOCKHASH_VALID_SLOTS) this.blockhashes.delete(hash);
      else break;
    this.svm.warpToSlot(BigInt(slot));
    const clock = this.svm.getClock();
    this.svm.setClock(
      new Clock(
        BigInt(slot),
        clock.epochStartTimestamp,
        BigInt(Math.floor(slot / SLOTS_PER_EPOCH)),
        clock.leaderScheduleEpoch,
        BigInt(Math.floor(this.now() / 1000)),
      ),
    );
    this.emit('slot', slot);
  }

  /** The newest slot a reader at this commitment sees (blocks are never skipped: height = slot). */
  slotAt(commitment: Commitment = 'finalized'): number {
    if (commitment === 'processed') return this.currentSlot;
    if (commitment === 'confirmed') return Math.max(0, this.currentSlot - 1);
    return Math.max(0, this.currentSlot - this.finalizeAfterSlots);
  }

  blockhashAt(commitment: Commitment): { blockhash: string; lastValidBlockHeight: number } {
    const slot = this.slotAt(commitment);
    return {
      blockhash: hashOf(this.genesisHash, String(slot)),
      lastValidBlockHeight: slot + BLOCKHASH_VALID_SLOTS,
    };
  }

  isBlockhashValid(blockhash: string, commitment: Commitment): boolean {
    const at = this.blockhashes.get(blockhash);
    return at !== undefined && at <= this.slotAt(commitment);
  }

  confirmationStatus(record: TransactionRecord): Commitment {
    const depth = this.currentSlot - record.slot;
    if (depth >= this.finalizeAfterSlots) return 'finalized';
    return depth >= 1 ? 'confirmed' : 'processed';
  }

  /** The record when a reader at this commitment can see it. */
  transaction(signature: string, commitment: Commitment): TransactionRecord | undefined {
    const record = this.records.get(signature);
    return record && record.slot <= this.slotAt(commitment) ? record : undefined;
  }

  /** Landed transactions naming the address among their account keys, newest first. */
  transactionsFor(address: string, commitment: Commitment): TransactionRecord[] {
    const visibleSlot = this.slotAt(commitment);
    const found: TransactionRecord[] = [];
    for (let i = this.history.length - 1; i >= 0; i--) {
      const record = this.history[i];
      if (record && record.slot <= visibleSlot && record.accountKeys.includes(address))
        found.push(record);
    }
    return found;
  }

  /** A landed transaction, in the history, its slot's block and the token account index. */
  private remember(record: TransactionRecord): void {
    this.history.push(record);
    const block = this.bySlot.get(record.slot);
    if (block) block.push(record);
    else this.bySlot.set(record.slot, [record]);
    this.indexTokenAccounts(record);
  }

  /** The oldest slot whose block this chain still has (devchain keeps every block it made). */
  firstAvailableBlock(): number {
    return 0;
  }

  /**
   * The block of `slot` as a reader at this commitment sees it, or null when it lies beyond
   * what that commitment sees. Devchain makes a block every slot (empty ones hold nothing).
   */
  block(
    slot: number,
    commitment: Commitment,
  ): {
    slot: number;
    blockhash: string;
    previousBlockhash: string;
    parentSlot: number;
    blockTime: number;
    transactions: TransactionRecord[];
  } | null {
    if (slot > this.slotAt(commitment)) return null;
    const transactions = this.bySlot.get(slot) ?? [];
    return {
      slot,
      blockhash: hashOf(this.genesisHash, String(slot)),
      previousBlockhash: hashOf(this.genesisHash, String(Math.max(0, slot - 1))),
      parentSlot: Math.max(0, slot - 1),
      // Devchain keeps no time per slot: an empty block is stamped with the clock now.
      blockTime: transactions[0]?.blockTime ?? Math.floor(this.now() / 1000),
      transactions,
    };
  }

  transactionCount(): number {
    return this.history.length;
  }

  balance(address: string): bigint {
    return this.svm.getBalance(address as Address) ?? 0n;
  }

  account(address: string) {
    const account = this.svm.getAccount(address as Address);
    return account.exists ? account : null;
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  /** The base fee: 5,000 lamports per signature (getFeeForMessage; no priority fee). */
  feeFor(message: VersionedMessage): number {
    return LAMPORTS_PER_SIGNATURE * message.header.numRequiredSignatures;
  }

  decode(wire: Uint8Array): VersionedTransaction {
    let transaction: VersionedTransaction;
    try {
      transaction = VersionedTransaction.deserialize(wire);
    } catch (error) {
      throw new TransactionRejected(
        'deserialize',
        `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`,
      );
    }
    if (transaction.signatures.length === 0)
      throw new TransactionRejected('deserialize', 'a transaction needs at least one signature');
    if (transaction.message.addressTableLookups.length > 0)
      throw new TransactionRejected(
        'unsupported',
        'devchain does not resolve address lookup tables',
      );
    return transaction;
  }

  /** Runs the transaction without committing it (preflight, simulateTransaction). */
  simulate(wire: Uint8Array): SimulationResult {
    const transaction = this.decode(wire);
    const early = this.loadError(transaction);
    if (early) return { err: early, logs: [], unitsConsumed: 0 };
    let result;
    try {
      result = this.svm.simulateTransaction(getTransactionDecoder().decode(wire));
    } catch {
      return { err: 'SignatureFailure', logs: [], unitsConsumed: 0 };
    }
    const meta = result.meta();
    const err = result instanceof FailedTransactionMetadata ? transactionErrorJson(result) : null;
    return { err, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) };
  }

  /** What a leader refuses before running anything: unknown/expired blockhash, a replay. */
  private loadError(transaction: VersionedTransaction): TransactionErrorJson | null {
    const signature = signatureOf(transaction);
    if (this.records.has(signature)) return 'AlreadyProcessed';
    if (!this.blockhashes.has(transaction.message.recentBlockhash)) return 'BlockhashNotFound';
    return null;
  }

  /** Executes a signed transaction; it lands (success or failure, fee charged) or is dropped. */
  send(wire: Uint8Array): SendResult {
    const transaction = this.decode(wire);
    const signature = signatureOf(transaction);
    const early = this.loadError(transaction);
    if (early) return { landed: false, signature, err: early };
    const { message, accountKeys } = describeTransaction(wire, transaction);
    const preBalances = accountKeys.map((key) => Number(this.balance(key)));
    const preTokenBalances = this.tokenBalances(accountKeys);
    let outcome;
    try {
      outcome = outcomeOf(this.svm.sendTransaction(getTransactionDecoder().decode(wire)));
    } catch {
      // litesvm refuses a transaction missing signatures before running it.
      return { landed: false, signature, err: 'SignatureFailure' };
    }
    if (!outcome.ok && !landsOnChain(outcome.err))
      return { landed: false, signature, err: outcome.err };
    const record: TransactionRecord = {
      ...describeTransaction(wire, transaction),
      slot: this.currentSlot,
      blockTime: Math.floor(this.now() / 1000),
      err: outcome.ok ? null : outcome.err,
      preBalances,
      postBalances: accountKeys.map((key) => Number(this.balance(key))),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(accountKeys),
      fee: chargedFee(outcome.meta) ?? this.feeFor(message),
      logMessages: outcome.meta.logs(),
      computeUnitsConsumed: Number(outcome.meta.computeUnitsConsumed()),
    };
    this.records.set(signature, record);
    this.remember(record);
    this.emit('transaction', record);
    return { landed: true, record };
  }

  /** The decimals of an SPL Token (or Token-2022) mint, or null when the address is none. */
  mintDecimals(address: string): number | null {
    const account = this.account(address);
    if (!account || !TOKEN_PROGRAMS.has(account.programAddress)) return null;
    return readMintDecimals(account.data);
  }

  /**
   * The token accounts among these keys with their balances, as real nodes record them: SPL
   * Token's, and Token-2022's (whose extensions follow the same first 165 bytes).
   */
  tokenBalances(accountKeys: string[]): TokenBalance[] {
    const balances: TokenBalance[] = [];
    accountKeys.forEach((key, accountIndex) => {
      const account = this.account(key);
      if (!account || !isTokenAccount(account.programAddress, account.data)) return;
      const { mint, owner, amount } = readTokenAccount(account.data);
      const decimals = this.mintDecimals(mint);
      if (decimals === null) return;
      balances.push({
        accountIndex,
        mint,
        owner,
        programId: account.programAddress,
        uiTokenAmount: uiTokenAmount(amount, decimals),
      });
    });
    return balances;
  }

  private indexTokenAccounts(record: TransactionRecord): void {
    for (const { accountIndex } of record.postTokenBalances) {
      const key = record.accountKeys[accountIndex];
      if (key) this.tokenAccounts.add(key);
    }
  }

  /** The token accounts (address, mint, owner, amount) held by this owner now, optionally of one mint. */
  tokenAccountsOf(owner: string, mint?: string) {
    const found: { address: string; mint: string; owner: string; amount: bigint }[] = [];
    for (const address of this.tokenAccounts) {
      const account = this.account(address);
      if (
        !account ||
        account.programAddress !== TOKEN_PROGRAM_ID.toBase58() ||
        account.data.length !== TOKEN_ACCOUNT_SIZE
      )
        continue;
      const fields = readTokenAccount(account.data);
      if (fields.owner === owner && (mint === undefined || fields.mint === mint))
        found.push({ address, ...fields });
    }
    return found;
  }

  /** The test mint of this symbol: its address is derived from the genesis hash. */
  testMint(symbol: TestToken): PublicKey {
    return testMintKeypair(this.genesisHash, symbol).publicKey;
  }

  /**
   * Creates the test mints (USDC, USDT; 6 decimals; the faucet is their mint authority) with real
   * transactions, unless they exist (a chain restored from a state file keeps them).
   */
  ensureTestMints(): void {
    for (const symbol of TEST_TOKENS) {
      const mint = testMintKeypair(this.genesisHash, symbol);
      if (this.account(mint.publicKey.toBase58())) continue;
      const transaction = new Transaction({
        feePayer: this.faucet.publicKey,
        recentBlockhash: this.blockhashAt('processed').blockhash,
      }).add(
        ...createMintInstructions(
          this.faucet.publicKey,
          mint.publicKey,
          this.faucet.publicKey,
          this.minimumBalanceForRentExemption(MINT_SIZE),
        ),
      );
      transaction.sign(this.faucet, mint);
      const result = this.send(transaction.serialize());
      if (!result.landed || result.record.err !== null)
        throw new Error(`devchain: creating the ${symbol} test mint failed`);
    }
  }

  /** requestAirdrop: a real System Program transfer from the chain's faucet keypair. */
  airdrop(to: PublicKey, lamports: number): SendResult {
    const transaction = new Transaction({
      feePayer: this.faucet.publicKey,
      recentBlockhash: this.blockhashAt('processed').blockhash,
    }).add(SystemProgram.transfer({ fromPubkey: this.faucet.publicKey, toPubkey: to, lamports }));
    transaction.sign(this.faucet);
    return this.send(transaction.serialize());
  }
}

function signatureOf(transaction: VersionedTransaction): string {
  const [first] = transaction.signatures;
  return first ? base58.decode(first) : '';
}

/**
 * What the runtime charged, priority fee included. litesvm's typings expose no accessor for it,
 * but its metadata's debug text ends with it (`fee: 205000 })`); the base fee is the fallback.
 */
function chargedFee(meta: TransactionMetadata): number | null {
  // Anchored at the end: program logs earlier in the text could contain "fee: ".
  const match = /\bfee: (\d+) \}\)$/.exec(meta.toString().trim());
  return match?.[1] ? Number(match[1]) : null;
}
