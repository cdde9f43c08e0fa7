import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Keypair } from '@solana/web3.js';
import { ConfigError, describeConfig, loadConfig } from './app-config';

const dir = mkdtempSync(join(tmpdir(), 'scn-sweep-settings-'));
const treasury = Keypair.generate();
const payer = Keypair.generate();
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};
const treasuryFile = write('treasury.json', JSON.stringify(Array.from(treasury.secretKey)));
const payerFile = write('payer.json', JSON.stringify(Array.from(payer.secretKey)));

const base = {
  DATA_DIR: '/tmp/scn-config-spec',
  APP_SECRET: 'x'.repeat(32),
  SOLANA_RPC_URL: 'http://127.0.0.1:8899',
  SOLANA_DEPOSIT_ADDRESS: treasury.publicKey.toBase58(),
};
const seeded = { ...base, SOLANA_DEPOSIT_SEED: 'ab'.repeat(32) };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig: deposit sweeps', () => {
  it('should keep sweeps off when per-account addresses are off or no key file is set', () => {
    expect(loadConfig({ ...base, SOLANA_TREASURY_KEY_FILE: treasuryFile }).sweeps).toBeNull();
    expect(loadConfig(seeded).sweeps).toBeNull();
    expect(describeConfig(loadConfig(seeded)).sweeps).toBe('off');
  });

  it('should use the treasury key file as the fee payer when no fee payer file is set', () => {
    const config = loadConfig({ ...seeded, SOLANA_TREASURY_KEY_FILE: treasuryFile });
    expect(config.sweeps?.feePayer.address).toBe(treasury.publicKey.toBase58());
  });

  it('should prefer SOLANA_FEE_PAYER_KEY_FILE and never show its secret', () => {
    const config = loadConfig({
      ...seeded,
      SOLANA_TREASURY_KEY_FILE: treasuryFile,
      SOLANA_FEE_PAYER_KEY_FILE: payerFile,
    });
    expect(config.sweeps?.feePayer.address).toBe(payer.publicKey.toBase58());
    expect(describeConfig(config).sweeps).toBe(`on (fee payer ${payer.publicKey.toBase58()})`);
    const shown = `${JSON.stringify(config.sweeps)} ${inspect(config.sweeps)}`;
    expect(shown).not.toContain(String(payer.secretKey[0]) + ',' + String(payer.secretKey[1]));
  });

  it('should refuse to start when the fee payer file is bad or has no addresses to sweep', () => {
    expect(
      problemsOf({ ...seeded, SOLANA_FEE_PAYER_KEY_FILE: write('bad.json', '[1,2]') }),
    ).toEqual([
      expect.stringMatching(
        /^SOLANA_FEE_PAYER_KEY_FILE=".*bad\.json": is not a Solana keypair file/,
      ),
    ]);
    expect(problemsOf({ ...seeded, SOLANA_FEE_PAYER_KEY_FILE: join(dir, 'missing.json') })).toEqual(
      [expect.stringContaining('cannot be read (ENOENT)')],
    );
    expect(problemsOf({ ...base, SOLANA_FEE_PAYER_KEY_FILE: payerFile })).toEqual([
      'SOLANA_FEE_PAYER_KEY_FILE: needs SOLANA_DEPOSIT_SEED (per-account addresses on)',
    ]);
  });
});
