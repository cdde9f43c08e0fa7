import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import { type LoadReplica, send } from './balanced-load';
import { freePort, waitFor } from './processes';
import type { SmtpCapture } from './smtp-capture';

/** The built server, as production runs it. */
export const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

/** A control-plane replica started from dist/main.js, with its keep-alive pool. */
export interface Replica extends LoadReplica {
  grpcPort: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

/** Where replicas run: one database, one SMTP capture, a data folder each under `dataDir`. */
export interface ReplicaWorld {
  databaseUrl: string;
  smtp: SmtpCapture;
  dataDir: string;
}

/** Starts a replica and waits until /health/ready answers 200. */
export async function startReplica(
  world: ReplicaWorld,
  name: string,
  env: Record<string, string>,
): Promise<Replica> {
  const port = await freePort();
  const grpcPort = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      GRPC_PORT: String(grpcPort),
      GRPC_HOST: '127.0.0.1',
      DATABASE_URL: world.databaseUrl,
      SMTP_URL: world.smtp.url,
      APP_SECRET: 'drain-secret-drain-secret-drain-secret-0',
      DATA_DIR: join(world.dataDir, name),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: performance.now() })),
  );
  const replica: Replica = {
    name,
    port,
    grpcPort,
    child,
    output: () => output,
    exited,
    agent: new http.Agent({ keepAlive: true, maxSockets: 8 }),
  };
  await waitFor(
    `replica ${name} ready`,
    async () => {
      if (child.exitCode !== null) throw new Error(`replica ${name} exited:\n${output}`);
      const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
      return response.ok ? true : null;
    },
    // Other suites may be running: a loaded machine starts slowly.
    60_000,
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return replica;
}

/** Ends a replica that is still running (SIGKILL) and lets its pool go. */
export async function killReplica(replica: Replica): Promise<void> {
  replica.agent.destroy();
  if (replica.child.exitCode === null && replica.child.signalCode === null) {
    replica.child.kill('SIGKILL');
    await replica.exited;
  }
}

let lastIp = 20;

/** Signs up through a replica's real endpoints (code by SMTP); a documentation address each. */
export async function registerOn(
  world: ReplicaWorld,
  replica: Replica,
  userType: 'client' | 'node',
): Promise<{ uuid: string; token: string }> {
  lastIp += 1;
  const ip = `198.51.100.${lastIp}`;
  const email = `drain.${userType}.${randomUUID().slice(0, 8)}@example.com`;
  const post = (path: string, body: unknown) =>
    send(replica, { kind: 'auth', method: 'POST', path, headers: { 'X-Forwarded-For': ip }, body });
  const since = world.smtp.mails.length;
  const sent = await post('/api/auth/generate-code', { email, userType });
  if (sent.status !== 200) throw new Error(`generate-code answered ${sent.status}: ${sent.body}`);
  const code = await world.smtp.codeFor(email, since);
  const answer = await post('/api/auth/register', {
    email,
    password: 'correct horse battery',
    userType,
    code,
    captchaToken: null,
  });
  if (answer.status !== 201) throw new Error(`register answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body!) as { uuid: string; token: string };
}
