import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../../../control-plane/test/support/processes';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The browser suite reuses the control plane's test kit: a real SMTP server on loopback and a
// fresh migrated database per suite.
import { SmtpCapture } from '../../../../control-plane/test/support/smtp-capture';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../../../control-plane/test/support/test-database';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** The browser suites' deposit-address seed (`StackOptions.depositAddresses`): tests only. */
const TEST_DEPOSIT_SEED = '5ca1ab1e'.repeat(8);

/** The local chain (devchain) a stack with deposits reads. */
export interface StackChain {
  url: string;
  demoWalletUrl: string;
  demoWalletAddress: string;
  depositAddress: string;
  /** The chain's test token mints (USDC, USDT) the demo wallet holds. */
  testMints: { USDC: string; USDT: string };
}

export interface StackOptions {
  /** Deposits on: a local Solana chain (devchain, built) and the control plane pointed at it. */
  solana?: boolean;
  /**
   * With `solana`, withdrawals on too: the chain's treasury keypair is kept in a
   * file the control plane signs payouts with, and the deposit address is its public key (so
   * deposits fund the payouts). Minimum 10 SSL.
   */
  withdrawals?: boolean;
  /**
   * With `solana`, per-account deposit addresses too: a fixed test seed
   * (SOLANA_DEPOSIT_SEED) and the chain's USDC and USDT mints accepted.
   */
  depositAddresses?: boolean;
  /**
   * A test clock: the control plane reads its time as the system's plus an offset
   * the test moves (TEST_CLOCK_FILE, refused unless NODE_ENV=test); each move runs every
   * periodic job once (the monthly rewards, the reliability sweep, payouts...).
   */
  testClock?: boolean;
  /** More settings for the control plane, e.g. `{ LAUNCH_PERIOD_ENDS: '2020-01-31' }`. */
  env?: Record<string, string>;
  /**
   * The client apps' APK mirror on (CLIENT_APK_MIRROR): a local server on loopback
   * stands in for GitHub (CLIENT_APK_MIRROR_BASE_URL) with made-up APK bytes for the release URLs
   * of client-apps.json, so the control plane has a copy of each to serve (never the real one).
   */
  apkMirror?: boolean;
}

/** The control plane's clock, moved by the test (`StackOptions.testClock`). */
export interface StackClock {
  /** The control plane's time now. */
  now(): Date;
  /**
   * Moves the control plane's time to `at` (it goes on from there). The server reads it at its
   * next `now()`; its periodic jobs run within about 100 ms.
   */
  set(at: Date): void;
}

export interface Stack {
  baseUrl: string;
  /** With `solana`: the local chain. */
  chain: StackChain | null;
  /** With `testClock`: the control plane's clock. */
  clock: StackClock | null;
  /** With `apkMirror`: the bytes the stand-in for GitHub serves, by APK file name. */
  apks: Record<string, Buffer> | null;
  /** The control plane's agent gRPC port on 127.0.0.1 (plaintext on loopback). */
  grpcPort: number;
  smtp: SmtpCapture;
  db: TestDatabase;
  stop(): Promise<void>;
}

/** Ports for the processes a suite starts: the control plane's test support draws them. */
export { freePort };

/** The built control plane (serving the built portal) on a free port, a fresh database and SMTP. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const entry = join(ROOT, 'control-plane', 'dist', 'main.js');
  if (!existsSync(entry) || !existsSync(join(ROOT, 'portal', 'dist', 'index.html'))) {
    throw new Error('Build first: npm run build (npm run test:browser does it)');
  }
  const db = await createTestDatabase();
  const smtp = await SmtpCapture.start();
  const port = await freePort();
  const grpcPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'scn-browser-'));
  chmodSync(dataDir, 0o755);
  const baseUrl = `http://127.0.0.1:${port}`;
  const treasuryKeyFile = options.withdrawals ? join(dataDir, 'treasury.json') : undefined;
  const devchain = options.solana ? await startChain(treasuryKeyFile) : null;
  const clockFile = options.testClock ? join(dataDir, 'clock-offset-ms') : undefined;
  const clock = clockFile ? fileClock(clockFile) : null;
  const chain = devchain?.chain ?? null;
  const apkUpstream = options.apkMirror ? await startApkUpstream() : null;
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATABASE_URL: db.url,
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@scn.test',
      APP_SECRET: 'browser-secret-browser-secret-browser-00',
      DATA_DIR: dataDir,
      GRPC_PORT: String(grpcPort),
      GRPC_HOST: '127.0.0.1',
      ...(chain
        ? {
            SOLANA_RPC_URL: chain.url,
            SOLANA_CLUSTER: 'localnet',
            SOLANA_DEPOSIT_ADDRESS: chain.depositAddress,
            // The local chain confirms within a slot; finalized would wait ~32 slots.
            SOLANA_COMMITMENT: 'confirmed',
            SOLANA_DEMO_WALLET_URL: chain.demoWalletUrl,
          }
        : {}),
      ...(chain && options.depositAddresses
        ? {
            SOLANA_DEPOSIT_SEED: TEST_DEPOSIT_SEED,
            SOLANA_USDC_MINT: chain.testMints.USDC,
            SOLANA_USDT_MINT: chain.testMints.USDT,
          }
        : {}),
      ...(chain && treasuryKeyFile
        ? {
            WITHDRAWALS_ENABLED: 'true',
            SOLANA_TREASURY_KEY_FILE: treasuryKeyFile,
            WITHDRAWAL_MIN_SSL: '10',
          }
        : {}),
      ...(clockFile ? { TEST_CLOCK_FILE: clockFile } : {}),
      ...options.env,
      ...(apkUpstream
        ? { CLIENT_APK_MIRROR: 'true', CLIENT_APK_MIRROR_BASE_URL: apkUpstream.baseUrl }
        : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`control plane exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('control plane did not start within 30 s');
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    baseUrl,
    chain,
    clock,
    apks: apkUpstream?.apks ?? null,
    grpcPort,
    smtp,
    db,
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await smtp.stop();
      await devchain?.stop();
      await apkUpstream?.stop();
      await db.drop();
    },
  };
}

/**
 * The stand-in for GitHub's release downloads: the path of each APK's release URL in
 * client-apps.json answers made-up APK bytes (a ZIP header and random bytes).
 */
async function startApkUpstream(): Promise<{
  baseUrl: string;
  apks: Record<string, Buffer>;
  stop(): Promise<void>;
}> {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'control-plane', 'src', 'downloads', 'client-apps.json'), 'utf8'),
  ) as Record<string, { url: string; fileName: string }>;
  const apks: Record<string, Buffer> = {};
  const byPath = new Map<string, Buffer>();
  for (const id of ['android-v2rayng', 'android-hiddify']) {
    const entry = manifest[id]!;
    const bytes = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(64 * 1024)]);
    apks[entry.fileName] = bytes;
    byPath.set(new URL(entry.url).pathname, bytes);
  }
  const server = createHttpServer((req, res) => {
    const bytes = byPath.get(req.url ?? '');
    if (!bytes) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apks,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The offset file the control plane reads (see control-plane/src/common/test-clock.ts). */
function fileClock(file: string): StackClock {
  let offsetMs = 0;
  const write = () => {
    // A whole file at once: the server reads it at every now() and must never see it half written.
    writeFileSync(`${file}.next`, `${offsetMs}\n`);
    renameSync(`${file}.next`, file);
  };
  write();
  return {
    now: () => new Date(Date.now() + offsetMs),
    set(at) {
      offsetMs = at.getTime() - Date.now();
      write();
    },
  };
}

interface Devchain {
  url: string;
  demoWalletUrl: string;
  demoWalletAddress: string;
  treasuryAddress: string;
  testMints: { USDC: string; USDT: string };
  stop(): Promise<void>;
}

/**
 * The built devchain on a free loopback port, and a fresh treasury address for the deposits; with
 * a treasury key file (withdrawals), the treasury is that keypair's.
 */
async function startChain(
  treasuryKeyFile?: string,
): Promise<{ chain: StackChain; stop(): Promise<void> }> {
  const entry = join(ROOT, 'devchain', 'dist', 'index.js');
  if (!existsSync(entry)) throw new Error('Build first: devchain/dist is missing');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startDevchain } = require(entry) as {
    startDevchain(options: {
      port?: number;
      slotMs?: number;
      treasuryKeyFile?: string;
    }): Promise<Devchain>;
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Keypair } = require('@solana/web3.js') as typeof import('@solana/web3.js');
  const devchain = await startDevchain({ port: 0, slotMs: 200, treasuryKeyFile });
  return {
    chain: {
      url: devchain.url,
      demoWalletUrl: devchain.demoWalletUrl,
      demoWalletAddress: devchain.demoWalletAddress,
      testMints: devchain.testMints,
      depositAddress: treasuryKeyFile
        ? devchain.treasuryAddress
        : Keypair.generate().publicKey.toBase58(),
    },
    stop: () => devchain.stop(),
  };
}
