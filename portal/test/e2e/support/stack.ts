import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
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

export interface Stack {
  baseUrl: string;
  /** The control plane's agent gRPC port on 127.0.0.1 (plaintext on loopback). */
  grpcPort: number;
  smtp: SmtpCapture;
  db: TestDatabase;
  stop(): Promise<void>;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The built control plane (serving the built portal) on a free port, a fresh database and SMTP. */
export async function startStack(): Promise<Stack> {
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
      await db.drop();
    },
  };
}
