import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Devchain, startDevchain } from '@scn/devchain';
import { Connection, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import request from 'supertest';
import { uniqueEmail } from '../support/accounts';
import { payFromDemoWallet, reach } from '../support/address-deposits';
import { ledgerViolations } from '../support/ledger';
import { freePort, waitFor } from '../support/processes';
import { SmtpCapture } from '../support/smtp-capture';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The ledger never depends on the sweep. The built control plane (dist/main.js) as
 * its own process, killed with SIGKILL between crediting a deposit and sweeping it, then started
 * again: the credit stays single, the sweep happens once, and the treasury plus the deposit
 * addresses hold on chain what the ledger says was deposited.
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const SEED = '3f'.repeat(32);

let dir: string;
let chain: Devchain;
let connection: Connection;
let db: TestDatabase;
let smtp: SmtpCapture;
let baseUrl: string;
let env: NodeJS.ProcessEnv;
let product: ChildProcess | undefined;
let output = '';

function start(): void {
  output = '';
  product = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  product.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  product.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
}

async function ready(): Promise<void> {
  await waitFor(
    'the control plane',
    async () => ((await fetch(`${baseUrl}/health/ready`)).status === 200 ? true : null),
    60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${output}`);
  });
}

async function kill(): Promise<void> {
  const child = product!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  dir = mkdtempSync(join(tmpdir(), 'scn-sweeps-'));
  chain = await startDevchain({ slotMs: 50, treasuryKeyFile: join(dir, 'treasury.json') });
  connection = new Connection(chain.url, 'confirmed');
  // The treasury key pays the sweeps' fees (SOLANA_FEE_PAYER_KEY_FILE's default).
  await reach(
    connection,
    await connection.requestAirdrop(new PublicKey(chain.treasuryAddress), 2 * LAMPORTS_PER_SOL),
    'confirmed',
  );
  db = await createTestDatabase();
  smtp = await SmtpCapture.start();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: join(dir, 'data'),
    DATABASE_URL: db.url,
    SMTP_URL: smtp.url,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    HOST: '127.0.0.1',
    PORT: String(port),
    GRPC_PORT: 'off',
    DEMO_NODES: '0',
    SOLANA_RPC_URL: chain.url,
    SOLANA_DEPOSIT_ADDRESS: chain.treasuryAddress,
    SOLANA_TREASURY_KEY_FILE: join(dir, 'treasury.json'),
    SOLANA_CLUSTER: 'localnet',
    SOLANA_COMMITMENT: 'finalized',
    SOLANA_DEPOSIT_SEED: SEED,
    SOLANA_USDC_MINT: chain.testMints.USDC,
  };
  start();
  await ready();
}, 90_000);

afterAll(async () => {
  if (product && product.exitCode === null && product.signalCode === null) await kill();
  await smtp?.stop();
  await db?.drop();
  await chain?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function client(): Promise<{ bearer: string; address: string }> {
  const email = uniqueEmail('client');
  const since = smtp.mails.length;
  await request(baseUrl).post('/api/auth/generate-code').send({ email, userType: 'client' });
  const code = await smtp.codeFor(email, since);
  const registered = await request(baseUrl)
    .post('/api/auth/register')
    .send({
      email,
      password: 'correct horse battery',
      userType: 'client',
      code,
      captchaToken: null,
    })
    .expect(201);
  const bearer = `Bearer ${(registered.body as { token: string }).token}`;
  const own = await request(baseUrl)
    .get('/api/solana/deposit-address')
    .set('Authorization', bearer)
    .expect(200);
  return { bearer, address: (own.body as { address: string }).address };
}

const count = async (sql: string, params: unknown[] = []): Promise<number> =>
  Number((await db.query<{ n: string }>(sql, params))[0]!.n);

describe('sweeps across a killed control plane', () => {
  it('should credit once and sweep once when killed between the credit and the sweep', async () => {
    const alice = await client();
    const treasuryBefore = BigInt(
      await connection.getBalance(new PublicKey(chain.treasuryAddress)),
    );
    const sol = await payFromDemoWallet(chain.demoWalletUrl, alice.address, '0.7');
    const usdc = await payFromDemoWallet(
      chain.demoWalletUrl,
      alice.address,
      '3',
      chain.testMints.USDC,
    );
    // The moment both are credited, before the sweep (every 5 s) takes them: kill -9.
    await waitFor(
      'both credits',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM deposit_transfers WHERE address = $1 AND status = 'credited'`,
          [alice.address],
        )) === 2
          ? true
          : null,
      20_000,
      10,
    );
    const sweptBeforeKill = await count(`SELECT count(*) AS n FROM deposit_sweeps`);
    await kill();
    expect(
      await db.query(
        `SELECT sweep_due_at IS NOT NULL AS due FROM deposit_addresses WHERE address = $1`,
        [alice.address],
      ),
    ).toEqual([{ due: sweptBeforeKill === 0 }]);

    start();
    await ready();
    await waitFor(
      'the sweep',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM deposit_sweeps WHERE address = $1 AND status = 'done'`,
          [alice.address],
        )) >= 1
          ? true
          : null,
      30_000,
    );
    await reach(
      connection,
      (
        await db.query<{ signature: string }>(
          `SELECT signature FROM deposit_sweeps WHERE address = $1 AND status = 'done'`,
          [alice.address],
        )
      )[0]!.signature,
      'finalized',
    );
    // Credited once each; the address emptied into the treasury, which paid no fee itself
    // beyond the fee payer's (the same key here): SOL arrives whole, less the fees it paid.
    expect(
      await count(`SELECT count(*) AS n FROM ledger_transactions WHERE external_ref IN ($1, $2)`, [
        `addr:${sol}:SOL:${alice.address}`,
        `addr:${usdc}:${chain.testMints.USDC}:${alice.address}`,
      ]),
    ).toBe(2);
    expect(await connection.getBalance(new PublicKey(alice.address))).toBe(0);
    const treasuryAfter = BigInt(await connection.getBalance(new PublicKey(chain.treasuryAddress)));
    const fees = await db.query<{ fees: string }>(
      `SELECT count(*)::text AS fees FROM deposit_sweeps WHERE status IN ('done', 'failed')`,
    );
    // Each landed sweep cost the fee payer (the treasury) 5,000 lamports per signature (its own
    // and the deposit address's), and the treasury's USDC account's rent once.
    const rent = BigInt(await connection.getMinimumBalanceForRentExemption(165));
    expect(treasuryAfter - treasuryBefore).toBe(
      700_000_000n - 10_000n * BigInt(fees[0]!.fees) - rent,
    );
    const tokens = await connection.getParsedTokenAccountsByOwner(
      new PublicKey(chain.treasuryAddress),
      { mint: new PublicKey(chain.testMints.USDC) },
    );
    expect(
      tokens.value.map(
        (t) =>
          (t.account.data.parsed as { info: { tokenAmount: { amount: string } } }).info.tokenAmount
            .amount,
      ),
    ).toEqual(['3000000']);
    expect(await ledgerViolations(db.url)).toEqual([]);
  }, 90_000);

  it('should credit and sweep deposits arriving while sweeps of the same address run', async () => {
    const bob = await client();
    const treasuryBefore = BigInt(
      await connection.getBalance(new PublicKey(chain.treasuryAddress)),
    );
    const sweepsBefore = await count(
      `SELECT count(*) AS n FROM deposit_sweeps WHERE status IN ('done', 'failed')`,
    );
    const amounts = ['0.11', '0.12', '0.13', '0.14', '0.15'];
    const signatures: string[] = [];
    for (const amount of amounts) {
      signatures.push(await payFromDemoWallet(chain.demoWalletUrl, bob.address, amount));
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await waitFor(
      'every deposit credited and the address swept empty',
      async () => {
        const credited = await count(
          `SELECT count(*) AS n FROM deposit_transfers WHERE address = $1 AND status = 'credited'`,
          [bob.address],
        );
        const due = await count(
          `SELECT count(*) AS n FROM deposit_addresses WHERE address = $1 AND sweep_due_at IS NOT NULL`,
          [bob.address],
        );
        const open = await count(`SELECT count(*) AS n FROM deposit_sweeps WHERE status = 'sent'`);
        const balance = await connection.getBalance(new PublicKey(bob.address), 'finalized');
        return credited === amounts.length && due === 0 && open === 0 && balance === 0
          ? true
          : null;
      },
      60_000,
    ).catch(async (error: Error) => {
      const state = {
        sweeps: await db.query(
          `SELECT status, error, lamports, created_at FROM deposit_sweeps WHERE address = $1`,
          [bob.address],
        ),
        transfers: await db.query(
          `SELECT status, base_units FROM deposit_transfers WHERE address = $1`,
          [bob.address],
        ),
        due: await db.query(`SELECT sweep_due_at FROM deposit_addresses WHERE address = $1`, [
          bob.address,
        ]),
        balance: await connection.getBalance(new PublicKey(bob.address)),
      };
      throw new Error(`${error.message}\n${JSON.stringify(state, null, 1)}\n${output}`);
    });
    expect(
      await count(`SELECT count(*) AS n FROM ledger_transactions WHERE external_ref = ANY($1)`, [
        signatures.map((sig) => `addr:${sig}:SOL:${bob.address}`),
      ]),
    ).toBe(amounts.length);
    const landed =
      (await count(`SELECT count(*) AS n FROM deposit_sweeps WHERE status IN ('done', 'failed')`)) -
      sweepsBefore;
    const treasuryAfter = BigInt(
      await connection.getBalance(new PublicKey(chain.treasuryAddress), 'finalized'),
    );
    // 0.65 SOL in, less 10,000 lamports per landed sweep (the treasury pays their fees here).
    expect(treasuryAfter - treasuryBefore).toBe(650_000_000n - 10_000n * BigInt(landed));
    console.log(`${amounts.length} deposits swept in ${landed} sweeps`);
    expect(await ledgerViolations(db.url)).toEqual([]);
  }, 120_000);
});
