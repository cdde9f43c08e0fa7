#!/usr/bin/env node
// `npm start`: runs the built control plane (which serves the portal) with the repository's
// defaults: embedded PostgreSQL under .data/ unless DATABASE_URL is set, mail to .data/outbox/
// unless SMTP_URL is set, and DEMO_NODES demo agents (default 3) so the market is not empty.
// The demo agents are the real scn-agent, enrolled through the real gRPC path; where xray or
// v2ray is on PATH they run it on loopback ports, otherwise they run without a proxy core.
// Deposits run against the local Solana chain (devchain/) started here on loopback
// (DEVCHAIN_PORT, default 8899), unless SOLANA_RPC_URL points at another chain or NODE_ENV is
// production (which refuses a localnet cluster); withdrawals are paid from its treasury.
// DEMO_ALLOW_TEST_DESTINATIONS (documentation-range CIDRs, e.g. 198.51.100.7/32) is handed to the
// demo agents as `run --allow-test-destinations`, so a tunnel through a demo node can reach a test
// host of your own there (nodes refuse every special-purpose destination otherwise; the agent
// refuses anything outside those ranges).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'control-plane', 'dist', 'main.js');
const agentEntry = join(root, 'node-agent', 'dist', 'src', 'index.js');
const devchainEntry = join(root, 'devchain', 'dist', 'index.js');
// The flags the installer's launcher runs the agent with (node-agent/src/node-flags.ts).
const { AGENT_NODE_ENV, AGENT_NODE_FLAGS } = createRequire(import.meta.url)(
  join(root, 'node-agent', 'dist', 'src', 'node-flags.js'),
);
if (!existsSync(entry) || !existsSync(agentEntry) || !existsSync(devchainEntry)) {
  console.error('Not built: run `npm run build` (npm start does it for you).');
  process.exit(1);
}

const env = { NODE_ENV: 'development', DEMO_NODES: '3', ...process.env };
const dataDir = env.DATA_DIR ?? join(root, '.data');
const demoDir = join(dataDir, 'demo');
const startedAt = Date.now();
const children = [];

/**
 * The local chain, in this process: the control plane reads it (SOLANA_RPC_URL), the portal's
 * "Pay with the demo wallet" calls its demo wallet, and the treasury keypair stays under DATA_DIR
 * (its public key is the deposit address; the control plane signs withdrawals' payouts with the
 * file, SOLANA_TREASURY_KEY_FILE).
 */
/** The deposit-address seed of this data directory: read, or made once (mode 0600). */
function depositSeed(file) {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const seed = randomBytes(32).toString('hex');
  writeFileSync(file, `${seed}\n`, { mode: 0o600, flag: 'wx' });
  return seed;
}

/** Airdrops 2 SOL to `address` when it holds less than 1 (the local chain's faucet). */
async function fundFeePayer(url, address) {
  const call = async (method, params) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = await response.json();
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  const { value } = await call('getBalance', [address, { commitment: 'processed' }]);
  if (value < 1_000_000_000) await call('requestAirdrop', [address, 2_000_000_000]);
}

async function startDevchain() {
  if (env.SOLANA_RPC_URL) {
    console.log(`[devchain] not started: SOLANA_RPC_URL is set (${env.SOLANA_RPC_URL})`);
    return null;
  }
  if (env.NODE_ENV === 'production') {
    console.log('[devchain] not started: NODE_ENV=production refuses a localnet cluster');
    return null;
  }
  const { startDevchain } = createRequire(import.meta.url)(devchainEntry);
  // The chain is kept beside the database (DATA_DIR/devchain/chain.json), so the deposits the
  // control plane remembers stay on chain across restarts.
  const options = {
    treasuryKeyFile: join(dataDir, 'devchain', 'treasury.json'),
    stateFile: join(dataDir, 'devchain', 'chain.json'),
  };
  const explicitPort = env.DEVCHAIN_PORT !== undefined;
  const port = explicitPort ? Number(env.DEVCHAIN_PORT) : 8899;
  if (!Number.isInteger(port) || port < 0 || port > 65534) {
    console.error(`DEVCHAIN_PORT must be an integer from 0 to 65534 (got "${env.DEVCHAIN_PORT}")`);
    process.exit(2);
  }
  let chain;
  try {
    chain = await startDevchain({ ...options, port });
  } catch (error) {
    if (explicitPort || error.code !== 'EADDRINUSE') throw error;
    chain = await startDevchain({ ...options, port: 0 });
    console.log(`[devchain] port 8899 or 8900 is taken: using ${new URL(chain.url).port}`);
  }
  // The deposit settings (control-plane README); what the caller set wins. `confirmed` rather
  // than production's `finalized` so a demo deposit is credited in about a second, not 13.
  env.SOLANA_RPC_URL = chain.url;
  env.SOLANA_PUBLIC_RPC_URL ??= chain.url;
  env.SOLANA_CLUSTER ??= 'localnet';
  env.SOLANA_DEPOSIT_ADDRESS ??= chain.treasuryAddress;
  env.SOLANA_COMMITMENT ??= 'confirmed';
  env.SOLANA_DEMO_WALLET_URL ??= chain.demoWalletUrl;
  // Withdrawals on against this chain, signed with the treasury key kept above, so
  // they can be tried offline; a minimum of 10 SSL (a 100 SSL default suits real clusters).
  if (env.SOLANA_DEPOSIT_ADDRESS === chain.treasuryAddress) {
    env.WITHDRAWALS_ENABLED ??= 'true';
    env.SOLANA_TREASURY_KEY_FILE ??= options.treasuryKeyFile;
    env.WITHDRAWAL_MIN_SSL ??= '10';
    // Per-account deposit addresses taking SOL, USDC and USDT: the seed they derive
    // from is kept beside the treasury key (a new one per data directory, never printed).
    env.SOLANA_DEPOSIT_SEED ??= depositSeed(join(dataDir, 'devchain', 'deposit-seed'));
    env.SOLANA_USDC_MINT ??= chain.testMints.USDC;
    env.SOLANA_USDT_MINT ??= chain.testMints.USDT;
    // Sweeps from those addresses are paid by the treasury key (SOLANA_FEE_PAYER_KEY_FILE's
    // default): give it SOL from the chain's faucet, as a platform would fund its fee payer.
    await fundFeePayer(chain.url, chain.treasuryAddress);
  }
  console.log(
    `[devchain] local Solana chain at ${chain.url} (commitment ${env.SOLANA_COMMITMENT}); ` +
      `treasury ${env.SOLANA_DEPOSIT_ADDRESS}; demo wallet ${chain.demoWalletAddress}; ` +
      `withdrawals ${env.WITHDRAWALS_ENABLED === 'true' ? 'on' : 'off'}; ` +
      `deposit addresses ${env.SOLANA_DEPOSIT_SEED ? 'on' : 'off'}; ` +
      `test mints USDC ${chain.testMints.USDC}, USDT ${chain.testMints.USDT} (the demo wallet ` +
      'holds 10,000 of each)',
  );
  return chain;
}

const devchain = await startDevchain();
const controlPlane = spawn(process.execPath, [entry], { stdio: 'inherit', env });
children.push(controlPlane);
// Each child is signalled once: a second SIGTERM while an agent stops would end it before it
// stopped its proxy core, leaving the core running (and its ports taken) after we exit.
let signalled = false;
controlPlane.on('exit', (code, signal) => {
  if (!signalled) for (const child of children) if (child !== controlPlane) child.kill('SIGTERM');
  const stopped = devchain ? devchain.stop() : Promise.resolve();
  void stopped.finally(() => process.exit(code ?? (signal ? 1 : 0)));
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    for (const child of children) child.kill(signal);
  });
}

function which(binary) {
  const result = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The tokens the control plane wrote at this start (DEMO_NODES). */
async function demoTokens() {
  const file = join(demoDir, 'enrollment.json');
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (existsSync(file) && statSync(file).mtimeMs >= startedAt - 1000)
      return JSON.parse(readFileSync(file, 'utf8'));
    await new Promise((r) => setTimeout(r, 500));
  }
  return null;
}

/**
 * A demo node enrolled at an earlier start keeps its config file; when the port settings changed
 * since, its file follows them (its next report tells the control plane the new address).
 */
function followPorts(configPath, publicPort, coreApiPort) {
  const config = JSON.parse(readFileSync(configPath, 'utf8'));
  if (config.publicPort === publicPort && config.core?.apiPort === coreApiPort) return;
  config.publicPort = publicPort;
  if (config.core) config.core.apiPort = coreApiPort;
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  console.log(
    `[demo] ${configPath}: now on ports ${publicPort} (VLESS) and ${coreApiPort} (core API)`,
  );
}

async function startDemoNodes() {
  if (Number(env.DEMO_NODES) === 0) return;
  const enrollment = await demoTokens();
  if (!enrollment) {
    console.error('[demo] the control plane wrote no demo enrollment tokens; no demo nodes');
    return;
  }
  const core = which('xray')
    ? { kind: 'xray', binary: which('xray') }
    : which('v2ray')
      ? { kind: 'v2ray', binary: which('v2ray') }
      : null;
  console.log(
    core
      ? `[demo] ${enrollment.tokens.length} demo nodes with ${core.kind} (${core.binary}) on loopback`
      : `[demo] ${enrollment.tokens.length} demo nodes WITHOUT a proxy core (install xray or v2ray for working connection strings)`,
  );
  // DATA_DIR exists (the control plane made it); only the demo folder is private.
  mkdirSync(dirname(demoDir), { recursive: true });
  mkdirSync(demoDir, { recursive: true, mode: 0o700 });
  enrollment.tokens.forEach((token, i) => {
    const config = join(demoDir, `agent-${i + 1}.json`);
    // DEMO_NODE_PORT / DEMO_CORE_API_PORT, validated by the control plane (no overlap, in range).
    const { publicPort, coreApiPort } = enrollment.ports[i];
    if (existsSync(config)) followPorts(config, publicPort, coreApiPort);
    else {
      const args = [
        'enroll',
        '--server',
        enrollment.grpcTarget,
        '--token',
        token,
        '--tier',
        enrollment.tier,
        '--config',
        config,
      ];
      args.push('--public-host', '127.0.0.1', '--public-port', String(publicPort));
      // Distinct places (from the control plane's DEMO_PLACES) so the market looks like one.
      const place = enrollment.places?.[i];
      if (place) args.push('--country', place.country, '--location', place.location);
      args.push(
        '--core-api-port',
        String(coreApiPort),
        '--core-work-dir',
        join(demoDir, `core-${i + 1}`),
      );
      if (core) args.push('--core', core.kind, '--core-binary', core.binary);
      const result = spawnSync(process.execPath, [agentEntry, ...args], { stdio: 'inherit' });
      if (result.status !== 0) {
        console.error(`[demo] enrolling demo node ${i + 1} failed`);
        return;
      }
    }
    const runArgs = ['run', '--config', config, ...(core ? [] : ['--no-core'])];
    if (env.DEMO_ALLOW_TEST_DESTINATIONS)
      runArgs.push('--allow-test-destinations', env.DEMO_ALLOW_TEST_DESTINATIONS);
    const agent = spawn(process.execPath, [...AGENT_NODE_FLAGS, agentEntry, ...runArgs], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...AGENT_NODE_ENV },
    });
    children.push(agent);
  });
}

startDemoNodes().catch((error) => console.error('[demo]', error));
