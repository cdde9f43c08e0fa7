import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../support/processes';

/**
 * `kill -9` of the control plane leaves its embedded PostgreSQL running, and a
 * crash or reboot leaves a postmaster.pid naming a dead or unrelated process; either used to
 * make the next start fail. The built control plane (dist/main.js, what `npm start` runs) is
 * started for real with its own DATA_DIR and ports, killed with SIGKILL, and started again.
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe('the embedded PostgreSQL across a killed control plane', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let httpPort: number;
  const runs: Run[] = [];
  const strays: ChildProcess[] = [];

  function start(): Run {
    const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const run = { child, output: () => output, exited };
    runs.push(run);
    return run;
  }

  /** Up means ready: the database answers, migrations applied, LISTEN in place. */
  async function ready(run: Run): Promise<void> {
    let exitCode: number | null | undefined;
    void run.exited.then((code) => (exitCode = code));
    await waitFor(
      'the control plane to be ready',
      async () => {
        if (exitCode !== undefined)
          throw new Error(`the control plane exited (${exitCode}):\n${run.output()}`);
        const response = await fetch(`http://127.0.0.1:${httpPort}/health/ready`).catch(() => null);
        return response?.status === 200;
      },
      180_000,
    );
  }

  /** Every postmaster seen, so that a failed run leaves none behind. */
  const postmasters = new Set<number>();
  const postmasterPid = () => {
    const pid = Number(
      readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    postmasters.add(pid);
    return pid;
  };

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
    dataDir = mkdtempSync(join(tmpdir(), 'scn-outage-orphan-'));
    // As root the embedded PostgreSQL runs as `postgres`, which must reach the folder.
    chmodSync(dataDir, 0o755);
    httpPort = await freePort();
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      LOG_PRETTY: 'false',
      DATA_DIR: dataDir,
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      GRPC_PORT: 'off',
      DEMO_NODES: '0',
    };
  });

  afterAll(async () => {
    for (const run of runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    }
    for (const stray of strays) stray.kill('SIGKILL');
    // Whatever still runs on this data folder (a failed assertion mid-way) goes too.
    for (const pid of postmasters) {
      if (!isAlive(pid)) continue;
      process.kill(pid, 'SIGINT');
      await waitFor('the test PostgreSQL to stop', () => !isAlive(pid), 30_000).catch(
        () => undefined,
      );
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('should stop the orphaned PostgreSQL of its data folder and start after kill -9', async () => {
    const first = start();
    await ready(first);
    const orphan = postmasterPid();

    first.child.kill('SIGKILL');
    await first.exited;
    // The bug's precondition, for real: the database outlived the control plane.
    expect(isAlive(orphan)).toBe(true);

    const second = start();
    await ready(second);
    expect(isAlive(orphan)).toBe(false);
    expect(postmasterPid()).not.toBe(orphan);
    expect(second.output()).toContain('orphaned embedded PostgreSQL');

    // A clean stop still stops the database it started.
    const current = postmasterPid();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await waitFor('PostgreSQL to stop with the control plane', () => !isAlive(current), 30_000);
  }, 400_000);

  it('should start when postmaster.pid names a live process that is not its PostgreSQL', async () => {
    // After a crash and a reboot the old PID may belong to anything: here, a sleeping shell.
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    strays.push(sleeper);
    const lock = join(dataDir, 'postgres', 'postmaster.pid');
    writeFileSync(
      lock,
      `${sleeper.pid}\n${join(dataDir, 'postgres')}\n0\n${env.EMBEDDED_PG_PORT}\n`,
    );

    const run = start();
    await ready(run);
    expect(isAlive(sleeper.pid!)).toBe(true); // not ours to stop
    expect(postmasterPid()).not.toBe(sleeper.pid);
    expect(run.output()).toContain('Removed a stale postmaster.pid');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 300_000);
});
