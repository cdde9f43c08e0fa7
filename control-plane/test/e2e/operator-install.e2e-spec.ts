import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import request from 'supertest';
import { uniqueEmail } from '../support/accounts';
import { describeNeeding } from '../support/requirements';
import { SmtpCapture } from '../support/smtp-capture';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { binaryBody, freePort, waitFor } from '../support/processes';

/**
 * The operator's journey on a fresh clone, as docs/operators.md tells it: `npm start` (here its
 * second half, `node scripts/start.mjs`, on what `npm run build` made: this suite builds nothing),
 * sign up as a node operator, take the setup wizard's install command exactly as the API gives
 * it, and run it. The installer downloads /downloads/scn-agent.tgz from the started product, so
 * the build must have made the bundle; it installs into a throwaway root (SCN_PREFIX, as
 * installer-run.e2e-spec.ts does) and the agent enrolls over gRPC on loopback. Only flags a test
 * machine needs are appended: `--core /usr/bin/v2ray` (the default downloads Xray from GitHub,
 * which nothing here may reach), `--public-host` and `--no-systemd`. `sudo` is a shim that runs
 * the command (the suite runs as root and the machine has no sudo); the real one would reset the
 * environment, which would drop SCN_PREFIX.
 */
const ROOT = join(__dirname, '..', '..', '..');
const START = join(ROOT, 'scripts', 'start.mjs');
const BUNDLE = join(ROOT, 'node-agent', 'dist-bundle', 'scn-agent.tgz');
const TEST_DESTINATION = '198.51.100.7/32';
/** This Node first: the installer installs Node.js from the distribution when none is on PATH. */
const PATH = `${dirname(process.execPath)}:${process.env.PATH}`;

/** Processes whose command line mentions `text` (read from /proc). */
function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Runs a shell command line asynchronously (the product under test is another process). */
function shell(
  line: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

describeNeeding(['v2ray', 'root'], 'the one-line install against npm start')(
  'the operator’s one-line install against `npm start`',
  () => {
    let dir: string;
    let db: TestDatabase;
    let smtp: SmtpCapture;
    let product: ChildProcess | undefined;
    let exited: Promise<number | null> | undefined;
    let output = '';
    let baseUrl: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'scn-operator-install-'));
      db = await createTestDatabase();
      smtp = await SmtpCapture.start();
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'warn',
        DATA_DIR: join(dir, 'data'),
        DATABASE_URL: db.url,
        SMTP_URL: smtp.url,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: baseUrl,
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: String(await freePort()),
        DEVCHAIN_PORT: '0',
        // One demo agent, to see that npm start hands it DEMO_ALLOW_TEST_DESTINATIONS.
        DEMO_NODES: '1',
        DEMO_NODE_PORT: String(await freePort()),
        DEMO_CORE_API_PORT: String(await freePort()),
        DEMO_ALLOW_TEST_DESTINATIONS: TEST_DESTINATION,
      };
      product = spawn(process.execPath, [START], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      product.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      product.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      exited = new Promise((resolve) => product!.on('exit', resolve));
      let code: number | null | undefined;
      void exited.then((value) => (code = value));
      await waitFor(
        'the started product',
        async () => {
          if (code !== undefined) throw new Error(`npm start exited (${code}):\n${output}`);
          const response = await fetch(`${baseUrl}/healthz`);
          return response.ok ? true : null;
        },
        60_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${output}`);
      });
    }, 90_000);

    afterAll(async () => {
      if (product && product.exitCode === null && product.signalCode === null) {
        product.kill('SIGTERM');
        await exited;
      }
      // Whatever a failed test left of the demo node (its agent, its core) goes too.
      for (const pid of processesMentioning(dir)) process.kill(pid, 'SIGKILL');
      await smtp?.stop();
      await db?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('should serve the agent bundle the build made, with its checksum', async () => {
      expect(existsSync(BUNDLE)).toBe(true);
      const checksum = await request(baseUrl).get('/checksums/server').expect(200);
      const bundle = await request(baseUrl)
        .get('/downloads/scn-agent.tgz')
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect(checksum.body.data).toMatchObject({
        fileName: 'scn-agent.tgz',
        algorithm: 'sha256',
        checksum: createHash('sha256')
          .update(bundle.body as Buffer)
          .digest('hex'),
        sizeBytes: (bundle.body as Buffer).length,
      });
    });

    it('should install and enroll a node with the setup wizard’s exact command', async () => {
      const email = uniqueEmail('operator');
      const password = 'correct horse battery';
      const since = smtp.mails.length;
      await request(baseUrl)
        .post('/api/auth/generate-code')
        .send({ email, userType: 'node' })
        .expect(200);
      const code = await smtp.codeFor(email, since);
      const registered = await request(baseUrl)
        .post('/api/auth/register')
        .send({ email, password, userType: 'node', code, captchaToken: null })
        .expect(201);
      const operator = registered.body as { uuid: string; token: string };
      const issued = await request(baseUrl)
        .post('/api/nodes/enrollment-tokens')
        .set('Authorization', `Bearer ${operator.token}`)
        .send({ tier: 'tier1' })
        .expect(201);
      const installCommand = (issued.body as { installCommand: string }).installCommand;
      expect(installCommand).toMatch(
        new RegExp(
          `^curl -fsSL ${baseUrl}/install\\.sh \\| sudo bash -s -- --token \\S+ --tier tier1$`,
        ),
      );

      const root = join(dir, 'root');
      mkdirSync(join(root, 'etc'), { recursive: true });
      writeFileSync(join(root, 'etc', 'os-release'), 'ID=debian\nVERSION_ID="12"\n');
      const shims = join(dir, 'shims');
      mkdirSync(shims);
      writeFileSync(join(shims, 'sudo'), '#!/bin/sh\nexec "$@"\n');
      chmodSync(join(shims, 'sudo'), 0o755);
      const install = await shell(
        `${installCommand} --core /usr/bin/v2ray --public-host 127.0.0.1 --no-systemd`,
        { PATH: `${shims}:${PATH}`, SCN_PREFIX: root },
      );
      expect({ status: install.status, output: install.output }).toMatchObject({ status: 0 });
      expect(install.output).toContain(`control plane ${baseUrl}`);
      expect(existsSync(join(root, 'opt', 'scn-agent', 'bin', 'scn-agent.js'))).toBe(true);

      const config = JSON.parse(
        readFileSync(join(root, 'etc', 'scn-agent', 'config.json'), 'utf8'),
      );
      expect(config).toMatchObject({
        tier: 'tier1',
        controlPlane: expect.stringMatching(/^127\.0\.0\.1:/),
      });
      const servers = await request(baseUrl)
        .get(`/nodes/servers/${operator.uuid}`)
        .set('Authorization', `Bearer ${operator.token}`)
        .expect(200);
      expect(servers.body.servers.map((s: { id: string }) => s.id)).toEqual([config.nodeId]);
    }, 90_000);

    it('should let a newcomer pay their own address from the demo wallet in SOL, USDC and USDT, credited within seconds', async () => {
      const email = uniqueEmail('client');
      const password = 'correct horse battery';
      const since = smtp.mails.length;
      await request(baseUrl)
        .post('/api/auth/generate-code')
        .send({ email, userType: 'client' })
        .expect(200);
      const code = await smtp.codeFor(email, since);
      const registered = await request(baseUrl)
        .post('/api/auth/register')
        .send({ email, password, userType: 'client', code, captchaToken: null })
        .expect(201);
      const bearer = `Bearer ${(registered.body as { token: string }).token}`;
      const config = (await request(baseUrl).get('/api/solana/config').expect(200)).body as {
        demoWalletUrl: string;
      };
      const own = (
        await request(baseUrl)
          .get('/api/solana/deposit-address')
          .set('Authorization', bearer)
          .expect(200)
      ).body as { address: string; currencies: Array<{ code: string; mint: string | null }> };
      expect(own.currencies.map((c) => c.code)).toEqual(['SOL', 'USDC', 'USDT']);
      const credits: string[] = [];
      for (const currency of own.currencies) {
        // As a phone wallet pays a transfer request: no reference, no sender named.
        const url = `solana:${own.address}?amount=1${currency.mint ? `&spl-token=${currency.mint}` : ''}`;
        const paid = await fetch(`${config.demoWalletUrl}/pay`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ url }),
        });
        expect(paid.status).toBe(200);
        const { signature } = (await paid.json()) as { signature: string };
        const sentAt = Date.now();
        const credited = await waitFor(
          `the ${currency.code} deposit credited`,
          async () => {
            const listed = await request(baseUrl)
              .get('/api/solana/deposit-address/transfers')
              .set('Authorization', bearer)
              .expect(200);
            const transfers = (
              listed.body as {
                transfers: Array<{ signature: string; status: string; creditMicro: string }>;
              }
            ).transfers;
            const found = transfers.find((x) => x.signature === signature);
            return found?.status === 'credited' ? found.creditMicro : null;
          },
          10_000,
        );
        console.log(`npm start: ${currency.code} credited ${Date.now() - sentAt} ms after paying`);
        credits.push(credited);
      }
      // 1 SOL at 5,143 SSL; 1 USDC and 1 USDT at $1 / $0.035, rounded down to micro-SSL.
      expect(credits).toEqual(['5143000000', '28571428', '28571428']);
    }, 60_000);

    it('should hand the demo agents DEMO_ALLOW_TEST_DESTINATIONS', async () => {
      await waitFor(
        'the demo agent',
        async () => (output.includes(`tunnels may reach ${TEST_DESTINATION}`) ? true : null),
        60_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${output}`);
      });
    }, 70_000);

    it('should stop the demo agents and their proxy cores when it is stopped', async () => {
      const demoDir = join(dir, 'data', 'demo');
      expect(processesMentioning(demoDir).length).toBeGreaterThan(0);
      product!.kill('SIGTERM');
      await exited;
      // An agent stops its core before it exits; nothing started for the demo node may outlive it.
      await waitFor(
        'the demo node to stop',
        async () => (processesMentioning(demoDir).length === 0 ? true : null),
        15_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${processesMentioning(demoDir).join(', ')}\n${output}`);
      });
    }, 30_000);
  },
);
