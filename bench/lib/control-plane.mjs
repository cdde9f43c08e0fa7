// Starts the built control plane on a free loopback port for a benchmark, with its own data
// folder (embedded PostgreSQL unless DATABASE_URL is set) and the mail outbox.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, chmodSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `nodeArgs`: extra node flags before the entry point (e.g. --cpu-prof). `dist`: another build's
 * dist folder (a before/after comparison; default CONTROL_PLANE_DIST, else control-plane/dist).
 * It needs the workspace's node_modules above it: a copy in /tmp gets symlinks to them.
 */
export async function startControlPlane(
  env = {},
  { nodeArgs = [], dist = process.env.CONTROL_PLANE_DIST } = {},
) {
  const entry = join(dist ?? join(root, 'control-plane', 'dist'), 'main.js');
  if (!existsSync(entry)) throw new Error('Build first: npm run build');
  const dataDir = mkdtempSync(join(tmpdir(), 'scn-bench-'));
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production checks shared posts on the platforms; nothing here may reach them.
      SHARE_VERIFY_FETCH: 'false',
      // No balancer to move away: stop at once rather than after production's 5 s drain delay.
      DRAIN_DELAY_MS: '0',
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      GRPC_PORT: '0',
      GRPC_HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`control plane exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('control plane did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    dataDir,
    /** The control plane's process id (the embedded PostgreSQL runs below it). */
    pid: child.pid,
    /**
     * The latest 6-digit code mailed to `email` (mail goes to DATA_DIR/outbox). The control
     * plane mails the code after it answers, so this waits for it (up to 10 s).
     */
    async codeFor(email) {
      const dir = join(dataDir, 'outbox');
      const deadline = Date.now() + 10_000;
      for (;;) {
        const file = existsSync(dir)
          ? readdirSync(dir)
              .filter((f) => f.includes(email))
              .sort()
              .pop()
          : undefined;
        // The file may be seen created but not yet written: read it again until it holds a code.
        const match =
          file &&
          /\b(\d{6})\b/.exec(
            readFileSync(join(dir, file), 'utf8').split('\n\n').slice(1).join('\n'),
          );
        if (match) return match[1];
        if (Date.now() > deadline) throw new Error(`no mail with a code for ${email}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    /**
     * Stops it and removes its data folder (an embedded database of several hundred MB per run;
     * BENCH_KEEP_DATA=1 keeps it to look at).
     */
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => {
          if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
          resolve(code);
        });
        child.kill('SIGTERM');
      }),
  };
}
