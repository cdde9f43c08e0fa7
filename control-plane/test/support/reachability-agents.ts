import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Country, spawnIn, supervise } from './censor-netns';
import { freePort } from './processes';
import { V2RAY_PATH } from './requirements';

/**
 * The built agent (node-agent/dist) as the processes of a censored world: nodes with a real
 * v2ray on this machine, vantage points (`scn-agent probe`) inside a country, and a subscriber's
 * v2ray inside a country built only from what the feed served. Each is a child process; stop()
 * ends it as systemd would (SIGTERM, then SIGKILL).
 */

const REPO = join(__dirname, '..', '..', '..');
export const AGENT_ENTRY = join(REPO, 'node-agent', 'dist', 'src', 'index.js');

/** The Node flags and environment the installer's launcher gives the agent (node-agent/src/node-flags.ts). */
function agentNodeFlags(): { flags: readonly string[]; env: Record<string, string> } {
  const built = join(REPO, 'node-agent', 'dist', 'src', 'node-flags.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const flags = require(built) as {
    AGENT_NODE_FLAGS: readonly string[];
    AGENT_NODE_ENV: Record<string, string>;
  };
  return { flags: flags.AGENT_NODE_FLAGS, env: flags.AGENT_NODE_ENV };
}

export type Supervised = ReturnType<typeof supervise>;

/** `scn-agent <args>` on this machine, or inside `country`. */
export function spawnAgent(args: readonly string[], country?: Country): Supervised {
  const { flags, env } = agentNodeFlags();
  const argv = [...flags, AGENT_ENTRY, ...args];
  const environment = { ...process.env, ...env };
  if (country) return spawnIn(country, process.execPath, argv, environment);
  return supervise(
    spawn(process.execPath, argv, { env: environment, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

/** Runs a one-shot agent command to its end; throws with its output unless it exits 0. */
async function runToEnd(what: string, args: readonly string[], country?: Country): Promise<void> {
  const agent = spawnAgent(args, country);
  const code = await new Promise<number | null>((resolve) => agent.child.once('exit', resolve));
  if (code !== 0) throw new Error(`${what} exited ${code}:\n${agent.output()}`);
}

export interface AgentNode {
  nodeId: string;
  host: string;
  /** The port it was enrolled with (the plan may move it later: port regeneration). */
  port: number;
  configPath: string;
  agent: Supervised;
}

/**
 * A node enrolled with the wizard's token (`scn-agent enroll`, plaintext gRPC to a TEST-NET
 * control plane: --insecure) advertising `host`, serving VLESS + TLS (self-signed, `--acme off`) with
 * /usr/bin/v2ray, then `scn-agent run` with `--allow-test-destinations` so tunnels may reach the
 * test hosts in the countries.
 */
export async function startAgentNode(options: {
  grpcTarget: string;
  token: string;
  host: string;
  dir: string;
  allowTestDestinations: string;
  country?: string;
  location?: string;
}): Promise<AgentNode> {
  mkdirSync(options.dir, { recursive: true });
  const configPath = join(options.dir, 'config.json');
  const port = await freePort();
  await runToEnd('scn-agent enroll', [
    'enroll',
    '--server',
    options.grpcTarget,
    '--insecure',
    '--token',
    options.token,
    '--tier',
    'tier1',
    '--public-host',
    options.host,
    '--public-port',
    String(port),
    // Self-signed only: the default asks Let's Encrypt, outside this machine.
    '--acme',
    'off',
    '--core',
    'v2ray',
    '--core-binary',
    V2RAY_PATH,
    '--core-api-port',
    String(await freePort()),
    '--core-work-dir',
    join(options.dir, 'core'),
    '--config',
    configPath,
    ...(options.country ? ['--country', options.country] : []),
    ...(options.location ? ['--location', options.location] : []),
  ]);
  const { nodeId } = JSON.parse(readFileSync(configPath, 'utf8')) as { nodeId: string };
  const agent = spawnAgent([
    'run',
    '--config',
    configPath,
    '--allow-test-destinations',
    options.allowTestDestinations,
  ]);
  return { nodeId, host: options.host, port, configPath, agent };
}

/**
 * A vantage point inside `country`: `scn-agent probe enroll` with the token from
 * POST /api/vantage-points/:uuid/enrollment-tokens, then `scn-agent probe run`.
 * TODO(after merging t-probe): the flags are the brief's (`--control-plane`, `--token`,
 * `--name`) plus the node agent's `--config` and `--insecure`; follow the CLI as built.
 */
export async function startProbe(options: {
  country: Country;
  grpcTarget: string;
  token: string;
  name: string;
  dir: string;
}): Promise<Supervised> {
  mkdirSync(options.dir, { recursive: true });
  const configPath = join(options.dir, 'probe.json');
  await runToEnd(
    'scn-agent probe enroll',
    [
      'probe',
      'enroll',
      '--control-plane',
      options.grpcTarget,
      '--insecure',
      '--token',
      options.token,
      '--name',
      options.name,
      '--config',
      configPath,
    ],
    options.country,
  );
  return spawnAgent(['probe', 'run', '--config', configPath], options.country);
}

/** The v2ray JSON a feed serves (`?format=v2ray`), as far as the client needs it. */
export interface ServedV2rayConfig {
  inbounds: Array<{ tag: string; port: number; listen?: string } & Record<string, unknown>>;
  outbounds: Array<{ protocol: string; settings?: unknown } & Record<string, unknown>>;
  dns?: unknown;
  [key: string]: unknown;
}

/** The VLESS servers (address:port) a served config's outbounds point at. */
export function vlessServersOf(config: ServedV2rayConfig): string[] {
  return config.outbounds
    .filter((outbound) => outbound.protocol === 'vless')
    .flatMap(
      (outbound) =>
        (outbound.settings as { vnext?: Array<{ address: string; port: number }> }).vnext ?? [],
    )
    .map((server) => `${server.address}:${server.port}`);
}

/**
 * Real v2ray inside `country` from a served config, changed only where a test must: its socks
 * inbound alone, on a port of the namespace's own loopback, and the DNS servers pointed at
 * `dnsHost` (a test host: a public resolver would be asked through the tunnel otherwise).
 */
export function startV2rayClient(
  country: Country,
  config: ServedV2rayConfig,
  dir: string,
  dnsHost: string,
): { socksPort: number; client: Supervised } {
  const socks = config.inbounds.find((inbound) => inbound.tag === 'socks');
  if (!socks) throw new Error(`the served config has no socks inbound: ${JSON.stringify(config)}`);
  const socksPort = 20_000 + Math.floor(Math.random() * 10_000);
  const local = { ...config, inbounds: [{ ...socks, listen: '127.0.0.1', port: socksPort }] };
  if (config.dns) local.dns = { servers: [{ address: dnsHost, port: 53 }] };
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `v2ray-client-${socksPort}.json`);
  writeFileSync(file, JSON.stringify(local));
  return { socksPort, client: spawnIn(country, V2RAY_PATH, ['-config', file]) };
}

/** A GET through the client's socks port, from inside the country (curl): status and body. */
export async function getThroughSocks(
  country: Country,
  socksPort: number,
  url: string,
): Promise<{ status: number; body: string }> {
  const out = await country.exec([
    'curl',
    '-sS',
    '--max-time',
    '10',
    '--socks5',
    `127.0.0.1:${socksPort}`,
    '-w',
    '\n%{http_code}',
    url,
  ]);
  const cut = out.lastIndexOf('\n');
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}
