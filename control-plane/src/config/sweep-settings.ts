import { statSync } from 'node:fs';
import type { Env } from './env.schema';
import type { SolanaSettings } from './solana-settings';
import { TreasuryKey, readKeypairFile } from './withdrawal-settings';

/** Sweeps of deposit addresses to the treasury (docs/deposits.md#sweeps); null when off. */
export interface SweepSettings {
  /** Pays every sweep's fee and the rent of the treasury's token accounts; never logged. */
  feePayer: TreasuryKey;
}

/**
 * On when per-account deposit addresses are on and a fee payer key file is set
 * (SOLANA_FEE_PAYER_KEY_FILE, else SOLANA_TREASURY_KEY_FILE); a file that cannot be read
 * as a keypair stops the start.
 */
export function sweepSettings(
  env: Env,
  solana: SolanaSettings | null,
): { settings: SweepSettings | null; problems: string[] } {
  const name = env.SOLANA_FEE_PAYER_KEY_FILE
    ? 'SOLANA_FEE_PAYER_KEY_FILE'
    : 'SOLANA_TREASURY_KEY_FILE';
  const file = env.SOLANA_FEE_PAYER_KEY_FILE ?? env.SOLANA_TREASURY_KEY_FILE;
  if (!file) return { settings: null, problems: [] };
  if (!solana?.depositAddresses) {
    return {
      settings: null,
      problems: env.SOLANA_FEE_PAYER_KEY_FILE
        ? ['SOLANA_FEE_PAYER_KEY_FILE: needs SOLANA_DEPOSIT_SEED (per-account addresses on)']
        : [],
    };
  }
  const keypair = readKeypairFile(file);
  if (typeof keypair === 'string') {
    return { settings: null, problems: [`${name}=${JSON.stringify(file)}: ${keypair}`] };
  }
  const mode = statSync(file).mode & 0o777;
  if (env.NODE_ENV === 'production' && (mode & 0o077) !== 0) {
    return {
      settings: null,
      problems: [
        `${name}=${JSON.stringify(file)}: is open to group or others (mode ${mode.toString(8)}); chmod 600 it`,
      ],
    };
  }
  return { settings: { feePayer: new TreasuryKey(keypair) }, problems: [] };
}

/** The settings as the start-up log line shows them (the public key only). */
export function describeSweeps(settings: SweepSettings | null): string {
  return settings ? `on (fee payer ${settings.feePayer.address})` : 'off';
}
