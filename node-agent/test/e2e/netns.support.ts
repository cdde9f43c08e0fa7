import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * A test host of our own: a network namespace joined to this one by a veth pair, both ends with
 * a TEST-NET-2 (198.51.100.0/24) address. Host routes (/32) rather than a shared /24 keep two
 * such pairs on one machine (other suites, other engineers) from stealing each other's packets.
 */
export interface TestNetns {
  name: string;
  /** The address of this machine's end (one of the node's own interface addresses). */
  hostAddress: string;
  /** The address of the namespace's end (the test host). */
  nsAddress: string;
  /** Spawns a command inside the namespace. */
  spawn(command: string, args: readonly string[]): ChildProcess;
  remove(): Promise<void>;
}

async function ip(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('ip', args, { timeout: 10_000 });
  return stdout;
}

/** Why namespaces cannot be used here, or null when they can (root and `ip netns`). */
export async function netnsUnavailableReason(): Promise<string | null> {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'not running as root';
  try {
    await ip('netns', 'list');
    return null;
  } catch (error) {
    return `\`ip netns\` is unavailable (${(error as Error).message.split('\n')[0]})`;
  }
}

/**
 * The same, synchronously, for a suite deciding at load time whether to skip (describe.skip):
 * root and `ip netns`.
 */
export function netnsSkipReason(): string | null {
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return 'needs root for ip netns';
  const probe = spawnSync('ip', ['netns', 'list'], { timeout: 5000 });
  if (probe.error || probe.status !== 0) return '`ip netns` is unavailable';
  return null;
}

/**
 * Creates `<prefix>-<n>` with veth `<prefix>h<n>` / `<prefix>n<n>` (at most 15 characters).
 * Anything half-made is removed when a step fails.
 */
export async function createTestNetns(prefix: string): Promise<TestNetns> {
  const used = `${await ip('-o', 'addr')}\n${await ip('route')}`;
  let host = 0;
  let ns = 0;
  do {
    host = randomInt(20, 250);
    ns = host + 1;
  } while (used.includes(`198.51.100.${host}`) || used.includes(`198.51.100.${ns}`));
  const suffix = String(randomInt(1000, 9999));
  const name = `${prefix}-${suffix}`;
  const hostIf = `${prefix}h${suffix}`;
  const nsIf = `${prefix}n${suffix}`;
  const hostAddress = `198.51.100.${host}`;
  const nsAddress = `198.51.100.${ns}`;
  const remove = async () => {
    // Deleting the namespace deletes its veth end, and with it the peer and the routes.
    await ip('netns', 'delete', name).catch(() => undefined);
    await ip('link', 'delete', hostIf).catch(() => undefined);
  };
  try {
    await ip('netns', 'add', name);
    await ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
    await ip('link', 'set', nsIf, 'netns', name);
    await ip('addr', 'add', `${hostAddress}/32`, 'dev', hostIf);
    await ip('link', 'set', hostIf, 'up');
    await ip('route', 'add', `${nsAddress}/32`, 'dev', hostIf);
    await ip('-n', name, 'addr', 'add', `${nsAddress}/32`, 'dev', nsIf);
    await ip('-n', name, 'link', 'set', nsIf, 'up');
    await ip('-n', name, 'link', 'set', 'lo', 'up');
    await ip('-n', name, 'route', 'add', `${hostAddress}/32`, 'dev', nsIf);
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    name,
    hostAddress,
    nsAddress,
    spawn: (command, args) =>
      spawn('ip', ['netns', 'exec', name, command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
    remove,
  };
}

/**
 * Node's HTTP server as a separate process inside the namespace, answering `body` on
 * `host`:port (default the namespace's address; `127.0.0.1` is the namespace's own loopback,
 * which only processes inside it reach). Resolves once it listens.
 */
export async function startNamespacedHttpServer(
  netns: TestNetns,
  port: number,
  body: string,
  host: string = netns.nsAddress,
): Promise<ChildProcess> {
  const script = `
    const http = require('node:http');
    const body = ${JSON.stringify(body)};
    http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body), connection: 'close' });
      response.end(body);
    }).listen(${port}, ${JSON.stringify(host)}, () => console.log('listening'));
  `;
  const child = netns.spawn(process.execPath, ['-e', script]);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no listen in the namespace: ${output}`)),
      10_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`namespaced server exited (${code}): ${output}`));
    });
  });
  return child;
}
