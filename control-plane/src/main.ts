import 'reflect-metadata';
import { join } from 'node:path';
import { createApp } from './bootstrap';
import { type AppConfig, ConfigError, describeConfig, loadConfig } from './config/app-config';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { fileClock } from './common/test-clock';
import { JobScheduler } from './jobs/job-scheduler';
import { DrainCoordinator } from './lifecycle/drain-coordinator';
import { HttpDrain } from './lifecycle/http-drain';

/**
 * After the drain's bound, what closing the application and the database may take before the
 * process exits anyway (README: exits within DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS + 3 s).
 */
const EXIT_GRACE_MS = 3_000;

function log(message: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(
    `${JSON.stringify({ level: 30, time: Date.now(), msg: message, ...fields })}\n`,
  );
}

async function openDatabase(config: AppConfig): Promise<EmbeddedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  log('DATABASE_URL is not set: starting the embedded PostgreSQL', {
    dir: join(config.dataDir, 'postgres'),
  });
  return startEmbeddedPostgres({
    databaseDir: join(config.dataDir, 'postgres'),
    port: config.embeddedPgPort,
    notice: log,
  });
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee the configuration table in README.md.\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const database = await openDatabase(config);
  const applied = await runMigrations(database.url);
  if (applied.length > 0) log('Applied migrations', { migrations: applied });

  // Tests only (loadConfig refuses it unless NODE_ENV=test): a clock the suite moves, every
  // periodic job running once when it does.
  const testClock = config.testClockFile ? fileClock(config.testClockFile) : undefined;
  const app = await createApp(config, database.url, { clock: testClock });
  // init() before the HTTP drain: socket.io attaches to the server there (see HttpDrain).
  await app.init();
  const drain = app.get(DrainCoordinator);
  drain.register(new HttpDrain(app.getHttpServer()));
  const jobs = app.get(JobScheduler);
  const unwatchClock = testClock?.watch(() => jobs.runAllNow());
  if (testClock) log('TEST CLOCK: time is moved by a file', { file: config.testClockFile });
  let stopping = false;
  // docs/architecture.md#shutdown-and-drains. The same signal again ends the process at once.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const startedAt = performance.now();
    const boundMs = config.drain.delayMs + config.drain.timeoutMs + EXIT_GRACE_MS;
    log('Shutting down', { signal, boundMs });
    setTimeout(() => {
      log('Shutdown did not finish within its bound: exiting', { boundMs });
      process.exit(1);
    }, boundMs).unref();
    unwatchClock?.();
    const report = await drain.drain(signal);
    await app.close();
    await database.stop();
    log('Stopped', { ...report, exitMs: Math.round(performance.now() - startedAt) });
    process.exit(0);
  };
  const stopOn = (signal: NodeJS.Signals) =>
    process.once(signal, () =>
      stop(signal).catch((error: unknown) => {
        process.stderr.write(
          `Shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
        process.exit(1);
      }),
    );
  stopOn('SIGINT');
  stopOn('SIGTERM');

  await app.listen(config.port, config.host);
  log(`SCN control plane listening: ${config.publicUrl}`, { config: describeConfig(config) });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
