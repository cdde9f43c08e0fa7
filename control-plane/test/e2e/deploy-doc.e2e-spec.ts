import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { depositSsl, ledgerViolations } from '../support/ledger';
import { makeLocalCa } from '../support/local-ca';
import { insertAccount } from '../support/market-fixtures';
import { freePort, waitFor } from '../support/processes';
import { SmtpCapture } from '../support/smtp-capture';
import {
  extractBlocks,
  parseEnvironmentFile,
  parseUnit,
  runStep,
  settingNames,
} from '../support/deploy-doc';

/**
 * docs/deploy.md followed from scratch on this machine, without Docker: its `deploy-step`
 * blocks run in order with the settings of its Settings block (the test's own values: random
 * ports, a scratch directory and database, a local CA's certificate instead of ACME). The
 * `deploy-systemd` block's units are started the way systemd would start them (their
 * EnvironmentFile lines and ExecStart; Caddy as Debian's caddy.service runs it). Readiness
 * through the proxy, a backup, its restore into a fresh database and the ledger checks on it.
 */
const ROOT = join(__dirname, '..', '..', '..');
const DOC = join(ROOT, 'docs', 'deploy.md');
const MAIN = join(ROOT, 'control-plane', 'dist', 'main.js');
/** What the doc's steps run besides Node.js: Debian's caddy, PostgreSQL's clients, curl. */
const TOOLS = [
  '/usr/bin/caddy',
  '/usr/bin/psql',
  '/usr/bin/pg_dump',
  '/usr/bin/pg_restore',
  '/usr/bin/curl',
];
const missing = TOOLS.filter((tool) => !existsSync(tool));
if (missing.length > 0) {
  console.warn(
    `deploy doc e2e skipped: ${missing.join(', ')} missing (apt-get install caddy postgresql-client curl)`,
  );
}
const withCaddy = missing.length === 0 ? describe : describe.skip;

interface Started {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

withCaddy('docs/deploy.md, followed without Docker', () => {
  const doc = readFileSync(DOC, 'utf8');
  const suffix = randomUUID().slice(0, 8);
  let work: string;
  let smtp: SmtpCapture;
  let settings: Record<string, string>;
  const started: Started[] = [];
  const admin = process.env.SCN_TEST_ADMIN_URL!;

  function launch(name: string, command: string[], cwd: string, env: Record<string, string>) {
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      env: { PATH: process.env.PATH, HOME: join(work, 'home'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const process_ = { name, child, output: () => output, exited };
    started.push(process_);
    return process_;
  }

  /** `systemctl start scn-control-plane@<instance>`, as systemd runs the unit. */
  function startReplicaUnit(instance: string): Started {
    const unit = parseUnit(
      readFileSync(join(settings.SCN_UNITS!, 'scn-control-plane@.service'), 'utf8'),
      instance,
    );
    const env = Object.assign(
      {},
      ...unit.environmentFiles.map((file) => parseEnvironmentFile(readFileSync(file, 'utf8'))),
    ) as Record<string, string>;
    return launch(`replica ${instance}`, unit.execStart, unit.workingDirectory, env);
  }

  /** Debian's caddy.service (`caddy run --environ --config /etc/caddy/Caddyfile`) with the drop-in. */
  function startCaddyUnit(): Started {
    const dropIn = parseUnit(
      readFileSync(join(settings.SCN_UNITS!, 'caddy.service.d', 'scn.conf'), 'utf8'),
      '',
    );
    const env = Object.assign(
      { XDG_DATA_HOME: join(work, 'caddy-data'), XDG_CONFIG_HOME: join(work, 'caddy-config') },
      ...dropIn.environmentFiles.map((file) => parseEnvironmentFile(readFileSync(file, 'utf8'))),
    ) as Record<string, string>;
    return launch(
      'caddy',
      ['caddy', 'run', '--environ', '--config', settings.SCN_CADDYFILE!],
      work,
      env,
    );
  }

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
    work = mkdtempSync(join(tmpdir(), 'scn-deploy-doc-'));
    smtp = await SmtpCapture.start();
    const ca = makeLocalCa(work);
    const pg = new URL(admin);
    const [portA, portB] = [await freePort(), await freePort()];
    settings = {
      SCN_DOMAIN: '127.0.0.1',
      SCN_HTTPS_PORT: String(await freePort()),
      SCN_GRPC_PORT: String(await freePort()),
      SCN_TLS: `${ca.certificatePem} ${ca.keyPem}`,
      // Each replica's gRPC port is its HTTP port + 1 (the doc's convention).
      SCN_REPLICAS: `a:${portA} b:${portB}`,
      SCN_APP: ROOT,
      SCN_ETC: join(work, 'etc'),
      SCN_DATA: join(work, 'data'),
      SCN_BACKUPS: join(work, 'backups'),
      SCN_UNITS: join(work, 'units'),
      SCN_CADDYFILE: join(work, 'caddy', 'Caddyfile'),
      SCN_PG: `${pg.hostname}:${pg.port || '5432'}`,
      PG_ADMIN_URL: admin,
      SCN_DB: `scn_deploy_${suffix}`,
      SCN_DB_USER: `scn_deploy_${suffix}`,
      SCN_RESTORE_DB: `scn_restore_${suffix}`,
      SCN_DB_PASSWORD: randomUUID(),
      APP_SECRET: `deploy-doc-${randomUUID()}`,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'SCN <no-reply@scn.test>',
      SUPPORT_EMAIL: 'support@scn.test',
    };
    // A port + 1 that is taken would fail the replica: pick again in that (rare) case.
    for (const port of [portA, portB]) {
      const free = spawnSync('sh', [
        '-c',
        `! (exec 3<>/dev/tcp/127.0.0.1/${port + 1}) 2>/dev/null`,
      ]);
      expect(free.status).toBe(0);
    }
  }, 60_000);

  afterAll(async () => {
    for (const process_ of started.reverse()) {
      if (process_.child.exitCode === null && process_.child.signalCode === null) {
        process_.child.kill('SIGTERM');
        await process_.exited;
      }
    }
    await smtp?.stop();
    const client = new Client({ connectionString: admin });
    await client.connect();
    for (const db of [settings?.SCN_DB, settings?.SCN_RESTORE_DB]) {
      if (db) await client.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    }
    if (settings?.SCN_DB_USER) await client.query(`DROP ROLE IF EXISTS "${settings.SCN_DB_USER}"`);
    await client.end();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('should document exactly the settings the steps read', () => {
    expect(settingNames(doc).sort()).toEqual(Object.keys(settings).sort());
  });

  it('should run from an empty database to two replicas ready through Caddy with TLS, then back up, restore and pass the ledger checks', async () => {
    const steps = extractBlocks(doc, 'deploy-step');
    const [database, files, migrations, check, backup, restore] = steps;
    expect(steps).toHaveLength(6);
    const env = { ...settings, CURL_CA_BUNDLE: join(work, 'ca.pem') };

    for (const step of [database!, files!, migrations!]) await runStep(step, env, work);

    // `systemctl enable --now scn-control-plane@a scn-control-plane@b; systemctl restart caddy`
    const [systemd] = extractBlocks(doc, 'deploy-systemd');
    const instances = [...systemd!.matchAll(/scn-control-plane@([a-z0-9]+)/g)].map((m) => m[1]!);
    expect(instances).toEqual(settings.SCN_REPLICAS!.split(' ').map((r) => r.split(':')[0]));
    expect(systemd).toContain('systemctl restart caddy');
    for (const instance of instances) {
      const replica = startReplicaUnit(instance);
      const port = Number(
        parseEnvironmentFile(
          readFileSync(join(settings.SCN_ETC!, `replica-${instance}.env`), 'utf8'),
        ).PORT,
      );
      await waitFor(
        `replica ${instance} ready`,
        async () => {
          if (replica.child.exitCode !== null)
            throw new Error(`replica ${instance} exited:\n${replica.output()}`);
          const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
          return response.ok ? true : null;
        },
        120_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}:\n${replica.output()}`);
      });
    }
    const caddy = startCaddyUnit();
    await waitFor(
      'readiness through the proxy',
      async () => {
        if (caddy.child.exitCode !== null) throw new Error(`caddy exited:\n${caddy.output()}`);
        await runStep(check!, env, work);
        return true;
      },
      30_000,
      200,
    );
    const ready = await runStep(check!, env, work);
    expect(JSON.parse(ready)).toMatchObject({ status: 'ready' });

    // Something in the ledger worth restoring: an account with SSL, written as a deposit.
    const url = `postgres://${settings.SCN_DB_USER}:${settings.SCN_DB_PASSWORD}@${settings.SCN_PG}/${settings.SCN_DB}`;
    const db = new Client({ connectionString: url });
    await db.connect();
    const owner = await insertAccount(db, { userType: 'client' });
    await db.end();
    await depositSsl(url, owner, 42);

    const backedUp = await runStep(backup!, env, work);
    expect(backedUp).toMatch(/^backup: .*\.dump$/m);
    const restored = await runStep(restore!, env, work);
    expect(restored).toContain('ledger checks passed');

    const restoredUrl = `postgres://${settings.SCN_DB_USER}:${settings.SCN_DB_PASSWORD}@${settings.SCN_PG}/${settings.SCN_RESTORE_DB}`;
    expect(await ledgerViolations(restoredUrl)).toEqual([]);
    const count = async (target: string) => {
      const client = new Client({ connectionString: target });
      await client.connect();
      const { rows } = await client.query<{ entries: string; balance: string }>(
        `SELECT (SELECT count(*) FROM ledger_entries)::text AS entries,
                (SELECT balance_micro::text FROM ledger_accounts
                  WHERE kind = 'client_wallet' AND owner_uuid = $1) AS balance`,
        [owner],
      );
      await client.end();
      return rows[0];
    };
    const [original, copy] = [await count(url), await count(restoredUrl)];
    expect(copy).toEqual(original);
    expect(copy?.balance).toBe('42000000');
  }, 360_000);
});
