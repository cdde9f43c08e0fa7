import { type ChildProcess, spawn } from 'node:child_process';
import https from 'node:https';
import { eventually } from './proxy-core.support';

/**
 * The production topology of docs/deploy.md on one machine without Docker: control plane
 * replicas (the built dist/main.js) behind Debian's Caddy running docker/Caddyfile, which
 * terminates TLS with a certificate of a local CA. Used by replicas-proxy.e2e-spec.ts.
 */

/** One replica: dist/main.js as a child process on its own HTTP and gRPC ports. */
export interface Replica {
  name: string;
  httpPort: number;
  grpcPort: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

export async function startReplica(
  main: string,
  name: string,
  ports: { httpPort: number; grpcPort: number },
  env: Record<string, string>,
): Promise<Replica> {
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      ...env,
      PORT: String(ports.httpPort),
      HOST: '127.0.0.1',
      GRPC_PORT: String(ports.grpcPort),
      GRPC_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`replica ${name} exited:\n${output}`);
    const response = await fetch(`http://127.0.0.1:${ports.httpPort}/health/ready`);
    if (response.status !== 200) throw new Error(`replica ${name} not ready`);
  }, 60_000);
  return { name, ...ports, child, output: () => output, exited };
}

/** Debian's Caddy on docker/Caddyfile; its state under `home`. */
export function startCaddy(
  caddyfile: string,
  home: string,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; exited: Promise<unknown> } {
  const child = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', caddyfile], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_DATA_HOME: home,
      XDG_CONFIG_HOME: home,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request to the proxy, trusting the local CA `ca` alone. */
export function httpsRequest(
  options: { port: number; ca: Buffer; agent?: https.Agent },
  method: string,
  route: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = https.request(
      {
        host: '127.0.0.1',
        port: options.port,
        method,
        path: route,
        ca: options.ca,
        agent: options.agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.setTimeout(15_000, () => request.destroy(new Error('timed out')));
    request.end(payload);
  });
}

/** The value of Caddy's sticky cookie in an answer (lb_policy cookie scn_replica). */
export function stickyCookie(answer: HttpsAnswer): string | undefined {
  const header = answer.headers['set-cookie'] ?? [];
  const cookies = typeof header === 'string' ? [header] : header;
  const found = cookies.find((c: string) => c.startsWith('scn_replica='));
  return found?.split(';')[0];
}

/** The sum of a Prometheus text exposition's samples of `name` whose labels include `labels`. */
export function sampleSum(
  exposition: string,
  name: string,
  labels: Record<string, string>,
): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    const match = new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`).exec(line);
    if (!match) continue;
    const have = Object.fromEntries(
      [...(match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => have[key] === value))
      sum += Number(match[2]);
  }
  return sum;
}
