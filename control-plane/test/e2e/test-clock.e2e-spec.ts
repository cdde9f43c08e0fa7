import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ECONOMICS_ROUTES, type LiveEconomy } from '@scn/proto';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { freePort, waitFor } from '../support/processes';

/**
 * The test clock of the built control plane (TEST_CLOCK_FILE, for the browser suites that start
 * dist/main.js as a child and cannot inject a clock object): refused at start-up unless
 * NODE_ENV=test; with NODE_ENV=test, the file's offset is the server's time at once, and moving
 * it runs the periodic jobs without waiting for their intervals (the monthly rewards job ticks
 * every 5 minutes: here it pays the month that just ended within seconds of the move).
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const DAY_MS = 86_400_000;

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output: () => output, exited };
}

describe('the test clock of the built control plane', () => {
  let dir: string;
  let clockFile: string;
  const runs: Run[] = [];

  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
    dir = mkdtempSync(join(tmpdir(), 'scn-test-clock-'));
    clockFile = join(dir, 'clock');
    writeFileSync(clockFile, '0\n');
  });

  afterAll(async () => {
    for (const run of runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const baseEnv = () => ({
    PATH: process.env.PATH,
    LOG_LEVEL: 'warn',
    DATA_DIR: dir,
    HOST: '127.0.0.1',
    GRPC_PORT: 'off',
    APP_SECRET: 'clock-secret-clock-secret-clock-secret-0',
    TEST_CLOCK_FILE: clockFile,
  });

  it.each([['production'], ['development']])(
    'should refuse to start with a test clock when NODE_ENV=%s',
    async (nodeEnv) => {
      const run = start({ ...baseEnv(), NODE_ENV: nodeEnv, PORT: String(await freePort()) });
      runs.push(run);
      expect(await run.exited).toBe(78);
      expect(run.output()).toContain(
        `TEST_CLOCK_FILE: is for tests only and refused unless NODE_ENV=test (NODE_ENV=${nodeEnv})`,
      );
    },
  );

  describe('with NODE_ENV=test', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('should read its time from the file and run the monthly job when the time moves', async () => {
      const port = await freePort();
      const run = start({
        ...baseEnv(),
        NODE_ENV: 'test',
        PORT: String(port),
        DATABASE_URL: db.url,
      });
      runs.push(run);
      let exitCode: number | null | undefined;
      void run.exited.then((code) => (exitCode = code));
      const live = () =>
        waitFor(
          'the live economy',
          async () => {
            if (exitCode !== undefined)
              throw new Error(`the control plane exited (${exitCode}):\n${run.output()}`);
            const response = await fetch(`http://127.0.0.1:${port}${ECONOMICS_ROUTES.live}`);
            return response.ok ? ((await response.json()) as LiveEconomy) : null;
          },
          30_000,
        );
      const now = await live();
      expect(now.month).toBe(new Date().toISOString().slice(0, 7));
      expect(run.output()).toContain('TEST CLOCK');

      // 70 days on: the server's month moves at once, and the month before it is paid (a run
      // row, status paid, for an empty network) without waiting for the job's 5 minutes.
      const offset = 70 * DAY_MS;
      writeFileSync(`${clockFile}.next`, `${offset}\n`);
      renameSync(`${clockFile}.next`, clockFile);
      const later = new Date(Date.now() + offset);
      const month = later.toISOString().slice(0, 7);
      const ended = new Date(Date.UTC(later.getUTCFullYear(), later.getUTCMonth() - 1, 1));
      const moved = await waitFor(
        'the moved month',
        async () => {
          const body = (await (
            await fetch(`http://127.0.0.1:${port}${ECONOMICS_ROUTES.live}`)
          ).json()) as LiveEconomy;
          return body.month === month ? body : null;
        },
        10_000,
      );
      expect(Math.abs(new Date(moved.computedAt).getTime() - later.getTime())).toBeLessThan(10_000);
      const paid = await waitFor(
        'the monthly run of the month that ended',
        async () => {
          const rows = await db.query<{ period: string; status: string }>(
            `SELECT to_char(period, 'YYYY-MM-DD') AS period, status FROM reward_runs`,
          );
          return rows.length > 0 && rows.every((row) => row.status === 'paid') ? rows : null;
        },
        10_000,
      );
      expect(paid).toEqual([{ period: ended.toISOString().slice(0, 10), status: 'paid' }]);
    });
  });
});
