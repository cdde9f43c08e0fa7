import { readFileSync, statSync } from 'node:fs';
import { Keypair, type Transaction } from '@solana/web3.js';
import { formatSsl, MICRO_PER_SSL, sslText, withdrawalQuote } from '@scn/proto';
import type { Env } from './env.schema';
import type { SolanaSettings } from './solana-settings';

/**
 * What a System Program transfer must leave in an account that did not exist: the rent-exempt
 * minimum of an account without data (890,880 lamports at the cluster's rent, unchanged since
 * genesis). A payout under it to a fresh address fails on chain (InsufficientFundsForRent).
 */
export const RENT_EXEMPT_MINIMUM_LAMPORTS = 890_880n;

/**
 * The treasury's keypair, which signs payouts. Kept out of logs: JSON and inspection show only
 * its public key.
 */
export class TreasuryKey {
  readonly address: string;

  constructor(private readonly keypair: Keypair) {
    this.address = keypair.publicKey.toBase58();
  }

  get publicKey(): Keypair['publicKey'] {
    return this.keypair.publicKey;
  }

  /** Signs the transaction as its fee payer and the transfer's source (with any co-signers). */
  sign(transaction: Transaction, ...cosigners: Keypair[]): void {
    transaction.sign(this.keypair, ...cosigners);
  }

  toJSON(): string {
    return `TreasuryKey(${this.address})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toJSON();
  }
}

/** Withdrawals' settings; null in AppConfig when they are off. */
export interface WithdrawalSettings {
  minimumMicro: bigint;
  dailyCapMicro: bigint;
  treasury: TreasuryKey;
}

/** Reads a Solana CLI keypair file (a JSON array of the 64 secret-key bytes). */
export function readKeypairFile(path: string): Keypair | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  let bytes: unknown;
  try {
    bytes = JSON.parse(text);
  } catch {
    bytes = null;
  }
  if (
    !Array.isArray(bytes) ||
    bytes.length !== 64 ||
    !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
  )
    return 'is not a Solana keypair file (a JSON array of 64 bytes, as solana-keygen writes)';
  try {
    return Keypair.fromSecretKey(Uint8Array.from(bytes as number[]));
  } catch {
    return 'holds a secret key that does not match its public key';
  }
}

/** The smallest whole SSL whose payout reaches the rent-exempt minimum at the rate. */
function smallestPayableSsl(sslPerSol: number): bigint {
  let ssl = (RENT_EXEMPT_MINIMUM_LAMPORTS * BigInt(sslPerSol) * 4n) / (3n * 1_000_000_000n);
  while (
    withdrawalQuote((ssl + 1n) * MICRO_PER_SSL, sslPerSol).lamports < RENT_EXEMPT_MINIMUM_LAMPORTS
  )
    ssl += 1n;
  return ssl + 1n;
}

/**
 * The withdrawal settings, or null (off) unless WITHDRAWALS_ENABLED. When on, they need the
 * Solana settings (the chain, the rate and the treasury address) and the treasury's key file,
 * whose public key must be the deposit address: payouts come from where deposits go.
 */
export function withdrawalSettings(
  env: Env,
  solana: SolanaSettings | null,
): { settings: WithdrawalSettings | null; problems: string[] } {
  if (!env.WITHDRAWALS_ENABLED) return { settings: null, problems: [] };
  const problems: string[] = [];
  const minimum = env.WITHDRAWAL_MIN_SSL;
  const cap = env.WITHDRAWAL_DAILY_CAP_SSL;
  if (cap < minimum) {
    problems.push(
      `WITHDRAWAL_DAILY_CAP_SSL=${sslText(cap)}: must be at least WITHDRAWAL_MIN_SSL (${sslText(minimum)})`,
    );
  }
  if (!solana) {
    problems.push(
      'WITHDRAWALS_ENABLED: needs the Solana settings (SOLANA_RPC_URL and SOLANA_DEPOSIT_ADDRESS): payouts are sent from that treasury',
    );
  } else {
    const lamports = withdrawalQuote(minimum, solana.sslPerSol).lamports;
    if (lamports < RENT_EXEMPT_MINIMUM_LAMPORTS) {
      problems.push(
        `WITHDRAWAL_MIN_SSL=${sslText(minimum)}: pays ${lamports} lamports after the fee at ${solana.sslPerSol} SSL per SOL, under the ${RENT_EXEMPT_MINIMUM_LAMPORTS} a new Solana account must receive (use at least ${smallestPayableSsl(solana.sslPerSol)})`,
      );
    }
  }
  const file = env.SOLANA_TREASURY_KEY_FILE;
  let treasury: TreasuryKey | null = null;
  if (!file) {
    problems.push(
      'SOLANA_TREASURY_KEY_FILE: is required when WITHDRAWALS_ENABLED=true (the treasury keypair, Solana CLI JSON format)',
    );
  } else {
    const keypair = readKeypairFile(file);
    if (typeof keypair === 'string') {
      problems.push(`SOLANA_TREASURY_KEY_FILE=${JSON.stringify(file)}: ${keypair}`);
    } else {
      treasury = new TreasuryKey(keypair);
      if (solana && treasury.address !== solana.depositAddress) {
        problems.push(
          `SOLANA_TREASURY_KEY_FILE=${JSON.stringify(file)}: its public key ${treasury.address} is not SOLANA_DEPOSIT_ADDRESS (${solana.depositAddress}); payouts must come from the treasury deposits pay`,
        );
      }
      const mode = statSync(file).mode & 0o777;
      if (env.NODE_ENV === 'production' && (mode & 0o077) !== 0) {
        problems.push(
          `SOLANA_TREASURY_KEY_FILE=${JSON.stringify(file)}: is open to group or others (mode ${mode.toString(8)}); chmod 600 it`,
        );
      }
    }
  }
  if (problems.length > 0 || !treasury) return { settings: null, problems };
  return { settings: { minimumMicro: minimum, dailyCapMicro: cap, treasury }, problems };
}

/** The settings as the start-up log line shows them. */
export function describeWithdrawals(settings: WithdrawalSettings | null): string {
  if (!settings) return 'off';
  return `on from ${settings.treasury.address} (minimum ${formatSsl(settings.minimumMicro)} SSL, daily cap ${formatSsl(settings.dailyCapMicro)} SSL)`;
}
