import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Keypair } from '@solana/web3.js';
import { withdrawalQuote } from '@scn/proto';
import { type AppConfig, ConfigError, describeConfig, loadConfig } from './app-config';
import { RENT_EXEMPT_MINIMUM_LAMPORTS } from './withdrawal-settings';

const dir = mkdtempSync(join(tmpdir(), 'scn-withdrawal-settings-'));
const treasury = Keypair.generate();
const keyFile = join(dir, 'treasury.json');
writeFileSync(keyFile, JSON.stringify(Array.from(treasury.secretKey)), { mode: 0o600 });

const base = { DATA_DIR: '/tmp/scn-config-spec', APP_SECRET: 'x'.repeat(32) };
const solana = {
  SOLANA_RPC_URL: 'http://127.0.0.1:8899',
  SOLANA_DEPOSIT_ADDRESS: treasury.publicKey.toBase58(),
};
const on = { ...solana, WITHDRAWALS_ENABLED: 'true', SOLANA_TREASURY_KEY_FILE: keyFile };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

function file(name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

describe('loadConfig: withdrawals', () => {
  it('should keep withdrawals off by default, even with a key file', () => {
    expect(loadConfig(base).withdrawals).toBeNull();
    expect(
      loadConfig({ ...base, ...solana, SOLANA_TREASURY_KEY_FILE: keyFile }).withdrawals,
    ).toBeNull();
  });

  it('should default to a 100 SSL minimum and a 50,000 SSL daily cap when on', () => {
    const config = loadConfig({ ...base, ...on });
    expect(config.withdrawals).toMatchObject({
      minimumMicro: 100_000_000n,
      dailyCapMicro: 50_000_000_000n,
    });
    expect(config.withdrawals?.treasury.address).toBe(treasury.publicKey.toBase58());
  });

  it('should take decimal SSL settings', () => {
    const settings = loadConfig({
      ...base,
      ...on,
      WITHDRAWAL_MIN_SSL: '12.5',
      WITHDRAWAL_DAILY_CAP_SSL: '1000.000001',
    }).withdrawals;
    expect(settings).toMatchObject({ minimumMicro: 12_500_000n, dailyCapMicro: 1_000_000_001n });
  });

  it('should never show the secret key in logs', () => {
    const config = loadConfig({ ...base, ...on }) as AppConfig;
    const secret = JSON.stringify(Array.from(treasury.secretKey));
    for (const text of [
      JSON.stringify(config.withdrawals?.treasury),
      inspect(config, { depth: 10 }),
      JSON.stringify(describeConfig(config)),
    ]) {
      expect(text).not.toContain(secret.slice(1, 40));
      expect(text).toContain(treasury.publicKey.toBase58());
    }
  });

  it.each([
    [{ ...on, WITHDRAWALS_ENABLED: 'maybe' }, 'WITHDRAWALS_ENABLED="maybe": must be true or false'],
    [
      { ...on, WITHDRAWAL_MIN_SSL: '0' },
      'WITHDRAWAL_MIN_SSL="0": must be an amount of SSL above 0',
    ],
    [{ ...on, WITHDRAWAL_MIN_SSL: '1.0000001' }, 'WITHDRAWAL_MIN_SSL="1.0000001": must be'],
    [{ ...on, WITHDRAWAL_DAILY_CAP_SSL: '-5' }, 'WITHDRAWAL_DAILY_CAP_SSL="-5": must be'],
    [
      { ...on, WITHDRAWAL_MIN_SSL: '500', WITHDRAWAL_DAILY_CAP_SSL: '400' },
      'WITHDRAWAL_DAILY_CAP_SSL=400: must be at least WITHDRAWAL_MIN_SSL (500)',
    ],
    [
      { WITHDRAWALS_ENABLED: 'true', SOLANA_TREASURY_KEY_FILE: keyFile },
      'WITHDRAWALS_ENABLED: needs the Solana settings (SOLANA_RPC_URL and SOLANA_DEPOSIT_ADDRESS)',
    ],
    [
      { ...solana, WITHDRAWALS_ENABLED: 'true' },
      'SOLANA_TREASURY_KEY_FILE: is required when WITHDRAWALS_ENABLED=true',
    ],
    [
      { ...on, SOLANA_TREASURY_KEY_FILE: join(dir, 'missing.json') },
      'missing.json": cannot be read (ENOENT)',
    ],
    [
      { ...on, SOLANA_TREASURY_KEY_FILE: file('short.json', '[1,2,3]') },
      'is not a Solana keypair file (a JSON array of 64 bytes',
    ],
    [
      { ...on, SOLANA_TREASURY_KEY_FILE: file('text.json', 'not json') },
      'is not a Solana keypair file',
    ],
    [
      {
        ...on,
        // The secret half of one key with the public half of another.
        SOLANA_TREASURY_KEY_FILE: file(
          'mismatch.json',
          JSON.stringify([
            ...Array.from(treasury.secretKey.slice(0, 32)),
            ...Array.from(Keypair.generate().publicKey.toBytes()),
          ]),
        ),
      },
      'holds a secret key that does not match its public key',
    ],
    [
      { ...on, SOLANA_DEPOSIT_ADDRESS: Keypair.generate().publicKey.toBase58() },
      'is not SOLANA_DEPOSIT_ADDRESS',
    ],
    [
      { ...on, WITHDRAWAL_MIN_SSL: '5' },
      'WITHDRAWAL_MIN_SSL=5: pays 729146 lamports after the fee at 5143 SSL per SOL, under the 890880 a new Solana account must receive (use at least 7)',
    ],
  ])('should refuse %j', (env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });

  it('should name a minimum that pays the rent-exempt minimum at any rate', () => {
    for (const rate of [1, 5143, 123_457]) {
      const [problem] = problemsOf({
        ...on,
        SOLANA_SSL_PER_SOL: String(rate),
        WITHDRAWAL_MIN_SSL: '0.000001',
      });
      const named = BigInt(/use at least (\d+)\)/.exec(problem ?? '')![1]!);
      const pays = (ssl: bigint) => withdrawalQuote(ssl * 1_000_000n, rate).lamports;
      expect(pays(named)).toBeGreaterThanOrEqual(RENT_EXEMPT_MINIMUM_LAMPORTS);
      if (named > 1n) expect(pays(named - 1n)).toBeLessThan(RENT_EXEMPT_MINIMUM_LAMPORTS);
      expect(
        problemsOf({ ...on, SOLANA_SSL_PER_SOL: String(rate), WITHDRAWAL_MIN_SSL: `${named}` }),
      ).toEqual([]);
    }
  });

  it('should refuse a key file open to others in production only', () => {
    const open = file('open.json', JSON.stringify(Array.from(treasury.secretKey)), 0o644);
    const env = { ...on, SOLANA_TREASURY_KEY_FILE: open, SOLANA_CLUSTER: 'devnet' };
    expect(problemsOf(env)).toEqual([]);
    expect(problemsOf({ ...env, NODE_ENV: 'production' }).join('\n')).toContain(
      'is open to group or others (mode 644); chmod 600 it',
    );
    expect(problemsOf({ ...on, SOLANA_CLUSTER: 'devnet', NODE_ENV: 'production' })).toEqual([]);
  });
});
