import { Keypair } from '@solana/web3.js';
import { ConfigError, loadConfig } from './app-config';

const base = { DATA_DIR: '/tmp/scn-config-spec', APP_SECRET: 'x'.repeat(32) };
const address = Keypair.generate().publicKey.toBase58();
const on = { SOLANA_RPC_URL: 'http://127.0.0.1:8899', SOLANA_DEPOSIT_ADDRESS: address };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig: Solana deposits (issue 17 §1)', () => {
  it('should turn deposits off when neither the RPC nor the deposit address is set', () => {
    expect(loadConfig(base).solana).toBeNull();
  });

  it('should default to localnet, finalized, 5143 SSL per SOL and a 30 minute quote', () => {
    expect(loadConfig({ ...base, ...on }).solana).toEqual({
      rpcUrl: 'http://127.0.0.1:8899',
      publicRpcUrl: 'http://127.0.0.1:8899',
      cluster: 'localnet',
      depositAddress: address,
      commitment: 'finalized',
      sslPerSol: 5143,
      quoteTtlSeconds: 1800,
      demoWalletUrl: null,
    });
  });

  it('should take every setting when given', () => {
    const settings = loadConfig({
      ...base,
      ...on,
      SOLANA_PUBLIC_RPC_URL: 'https://rpc.example',
      SOLANA_CLUSTER: 'devnet',
      SOLANA_COMMITMENT: 'confirmed',
      SOLANA_SSL_PER_SOL: '6000',
      DEPOSIT_QUOTE_TTL: '10m',
    }).solana;
    expect(settings).toMatchObject({
      publicRpcUrl: 'https://rpc.example',
      cluster: 'devnet',
      commitment: 'confirmed',
      sslPerSol: 6000,
      quoteTtlSeconds: 600,
    });
  });

  it.each([
    [{ SOLANA_RPC_URL: 'http://127.0.0.1:8899' }, 'set both (deposits on) or neither'],
    [{ SOLANA_DEPOSIT_ADDRESS: address }, 'set both (deposits on) or neither'],
    [{ ...on, SOLANA_DEPOSIT_ADDRESS: 'not-base58!' }, 'must be a base58 Solana public key'],
    // 44 base58 characters that decode to more than 32 bytes.
    [{ ...on, SOLANA_DEPOSIT_ADDRESS: 'z'.repeat(44) }, 'is not a valid base58 public key'],
    [{ ...on, SOLANA_RPC_URL: 'ws://x.example' }, 'must start with http:// or https://'],
    [{ ...on, SOLANA_CLUSTER: 'testnet' }, 'SOLANA_CLUSTER="testnet"'],
    [{ ...on, SOLANA_COMMITMENT: 'processed' }, 'SOLANA_COMMITMENT="processed"'],
    [{ ...on, SOLANA_SSL_PER_SOL: '0' }, 'must be between 1 and 1000000000'],
    [{ ...on, DEPOSIT_QUOTE_TTL: '10' }, 'DEPOSIT_QUOTE_TTL="10": must be between 60s'],
    [
      { ...on, NODE_ENV: 'production' },
      'SOLANA_CLUSTER=localnet: is refused when NODE_ENV=production',
    ],
    [{ NODE_ENV: 'production', SOLANA_CLUSTER: 'localnet' }, 'is refused when NODE_ENV=production'],
    [
      { ...on, SOLANA_CLUSTER: 'devnet', SOLANA_DEMO_WALLET_URL: 'http://127.0.0.1:8900' },
      'SOLANA_DEMO_WALLET_URL: only for SOLANA_CLUSTER=localnet',
    ],
  ])('should refuse %j', (env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });

  it('should let production run with deposits off and no cluster named', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([]);
  });

  it('should hide the RPC URL (it may carry an API key) in the error', () => {
    expect(problemsOf({ SOLANA_RPC_URL: 'nope?key=secret' }).join('\n')).toContain(
      'SOLANA_RPC_URL=(hidden)',
    );
  });
});
