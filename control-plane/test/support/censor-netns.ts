import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A small censored world on this machine (docs/reachability.md): "countries" that are network
 * namespaces, each joined to this one by its own veth pair with /32 host routes and its own
 * TEST-NET-2 address (node-agent's createTestNetns, loaded by path like node-agent loads this
 * package's kit), and "service addresses" on TEST-NET-3 in this namespace (the control plane and
 * the nodes), routed from every country through its veth. Nothing has a default route, so no
 * packet can leave the machine. A country's censor is nftables inside its namespace: it drops a
 * server's address and port, or resets the connection once a TLS ClientHello is sent, as a DPI
 * box does.
 */

const execFileAsync = promisify(execFile);
const REPO = join(__dirname, '..', '..', '..');

/** node-agent/test/e2e/netns.support.ts, as far as this file uses it. */
export interface TestNetns {
  name: string;
  /** This machine's end of the pair (the namespace's gateway). */
  hostAddress: string;
  /** The namespace's own address: where its traffic comes from. */
  nsAddress: string;
  spawn(command: string, args: readonly string[]): ChildProcess;
  remove(): Promise<void>;
}
interface NetnsKit {
  createTestNetns(prefix: string): Promise<TestNetns>;
  startNamespacedHttpServer(
    netns: TestNetns,
    port: number,
    body: string,
    host?: string,
  ): Promise<ChildProcess>;
}

/** The node agent's namespace helpers, loaded at run time (outside this package's rootDir). */
export async function loadNetnsKit(): Promise<NetnsKit> {
  const file = join(REPO, 'node-agent', 'test', 'e2e', 'netns.support');
  return (await import(file)) as NetnsKit;
}

/** Where the GeoIP test override places a country's address. */
export interface Place {
  country: string;
  asn: number;
  asnName: string;
}

/** How a censor treats a server's address and port. */
export type CensorMode = 'drop' | 'reset-after-client-hello';
export interface CensorRule {
  host: string;
  port: number;
  mode: CensorMode;
}

export interface Country {
  key: string;
  place: Place;
  netns: TestNetns;
  /** Where this country's traffic comes from (what the GeoIP override maps). */
  address: string;
  /** Runs a command inside the namespace and answers its stdout (stdin: `input`). */
  exec(args: readonly string[], input?: string, timeoutMs?: number): Promise<string>;
  /** A GET from inside the country with curl (never a proxy from the environment). */
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; body: string }>;
  /** Replaces the censor's rules (none: nothing censored). */
  censor(rules: readonly CensorRule[]): Promise<void>;
  /** Packets each rule matched so far, in the order given to censor(). */
  censorCounts(): Promise<number[]>;
}

export interface CensoredWorld {
  countries: Record<string, Country>;
  /** TEST-NET-3 addresses on this machine, reachable from every country: [0] the control plane. */
  services: string[];
  /** GEOIP_TEST_OVERRIDES for the countries' addresses. */
  geoipOverrides: string;
  /** The namespaces' addresses as one CIDR list (a node's --allow-test-destinations). */
  countryCidrs: string;
  close(): Promise<void>;
}

async function run(command: string, args: readonly string[], input?: string, timeoutMs = 20_000) {
  const child = execFileAsync(command, args, {
    timeout: timeoutMs,
    env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin' },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

/**
 * The nftables ruleset of a censor: one table, one output chain (the country's own hosts are
 * the users), a counter per rule. The reset rule matches the first two bytes of the TCP payload
 * (`@ih`, after the TCP header whatever its options): 0x16 0x03, a TLS handshake record, which
 * a ClientHello is; the SYN and the handshake's ACK pass, so the TCP connection is made first.
 */
export function censorRuleset(rules: readonly CensorRule[]): string {
  const lines = rules.map(({ host, port, mode }) =>
    mode === 'drop'
      ? `ip daddr ${host} tcp dport ${port} counter drop`
      : `ip daddr ${host} tcp dport ${port} @ih,0,16 0x1603 counter reject with tcp reset`,
  );
  return [
    'table inet scn_censor',
    'delete table inet scn_censor',
    'table inet scn_censor {',
    '  chain out {',
    '    type filter hook output priority 0; policy accept;',
    ...lines.map((line) => `    ${line}`),
    '  }',
    '}',
    '',
  ].join('\n');
}

function makeCountry(key: string, place: Place, netns: TestNetns): Country {
  const exec = (args: readonly string[], input?: string, timeoutMs?: number) =>
    run('ip', ['netns', 'exec', netns.name, ...args], input, timeoutMs);
  return {
    key,
    place,
    netns,
    address: netns.nsAddress,
    exec,
    async get(url, headers = {}) {
      const args = ['curl', '-sS', '--noproxy', '*', '--max-time', '15', '-w', '\n%{http_code}'];
      for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
      const out = await exec([...args, url]);
      const cut = out.lastIndexOf('\n');
      return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
    },
    async censor(rules) {
      await exec(['nft', '-f', '-'], censorRuleset(rules));
    },
    async censorCounts() {
      const listed = await exec(['nft', 'list', 'chain', 'inet', 'scn_censor', 'out']);
      return [...listed.matchAll(/counter packets (\d+)/g)].map((m) => Number(m[1]));
    },
  };
}

/** Free addresses of 203.0.113.160-239 (other suites use the low blocks): none on any interface or route. */
async function freeServiceAddresses(count: number): Promise<string[]> {
  const used = `${await run('ip', ['-o', '-4', 'addr'])}\n${await run('ip', ['-4', 'route'])}`;
  const start = randomInt(0, 80);
  const found: string[] = [];
  for (let i = 0; i < 80 && found.length < count; i += 1) {
    const address = `203.0.113.${160 + ((start + i) % 80)}`;
    if (!new RegExp(`\\b${address.replace(/\./g, '\\.')}\\b`).test(used)) found.push(address);
  }
  if (found.length < count) throw new Error('no free service addresses in 203.0.113.160-239');
  return found;
}

/**
 * Creates the countries (`prefix` + key names the namespaces, at most 10 characters) and
 * `serviceCount` service addresses on a veth pair of this namespace (`<prefix>s`/`<prefix>t`),
 * each routed from every country via its gateway. Anything half-made is removed on failure.
 */
export async function startCensoredWorld(
  prefix: string,
  places: Record<string, Place>,
  serviceCount: number,
): Promise<CensoredWorld> {
  const kit = await loadNetnsKit();
  const created: TestNetns[] = [];
  const serviceIf = `${prefix}s`;
  const close = async () => {
    for (const netns of created) await netns.remove();
    await run('ip', ['link', 'del', serviceIf]).catch(() => undefined);
  };
  try {
    const countries: Record<string, Country> = {};
    for (const [key, place] of Object.entries(places)) {
      const netns = await kit.createTestNetns(`${prefix}${key}`);
      created.push(netns);
      countries[key] = makeCountry(key, place, netns);
    }
    const services = await freeServiceAddresses(serviceCount);
    await run('ip', ['link', 'add', serviceIf, 'type', 'veth', 'peer', 'name', `${prefix}t`]);
    for (const address of services) {
      await run('ip', ['addr', 'add', `${address}/32`, 'dev', serviceIf]);
    }
    await run('ip', ['link', 'set', serviceIf, 'up']);
    await run('ip', ['link', 'set', `${prefix}t`, 'up']);
    for (const { netns } of Object.values(countries)) {
      for (const address of services) {
        await run('ip', [
          '-n',
          netns.name,
          'route',
          'add',
          `${address}/32`,
          'via',
          netns.hostAddress,
        ]);
      }
    }
    const list = Object.values(countries);
    return {
      countries,
      services,
      geoipOverrides: list
        .map((c) => `${c.address}/32=${c.place.country}:${c.place.asn}:${c.place.asnName}`)
        .join(','),
      countryCidrs: list.map((c) => `${c.address}/32`).join(','),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** How a connection from a country to host:port ended, as the censor's victim sees it. */
export type ConnectOutcome = 'ok' | 'reset' | 'timeout' | 'refused' | 'closed' | string;

/**
 * Connects from inside the country to host:port, sends each payload (hex) in turn and waits for
 * an answer to each: what came back and how it ended. Node.js run in the namespace.
 */
export async function tcpExchange(
  country: Country,
  host: string,
  port: number,
  payloads: readonly Buffer[],
  timeoutMs = 3000,
): Promise<{ connected: boolean; replies: string[]; end: ConnectOutcome }> {
  const script = `
    const net = require('node:net');
    const [host, port, timeout, ...payloads] = process.argv.slice(1);
    const out = { connected: false, replies: [], end: null };
    const done = () => { if (out.end === null) out.end = 'open'; console.log(JSON.stringify(out)); process.exit(0); };
    const timer = setTimeout(() => { out.end = out.end ?? 'timeout'; done(); }, Number(timeout));
    let i = 0;
    const socket = net.connect({ host, port: Number(port) });
    const next = () => { if (i >= payloads.length) { clearTimeout(timer); done(); } else socket.write(Buffer.from(payloads[i++], 'hex')); };
    socket.on('connect', () => { out.connected = true; next(); });
    socket.on('data', (data) => { out.replies.push(data.toString('hex')); next(); });
    socket.on('error', (e) => { out.end = e.code === 'ECONNRESET' ? 'reset' : e.code === 'ECONNREFUSED' ? 'refused' : e.code || e.message; clearTimeout(timer); done(); });
    socket.on('close', () => { out.end = out.end ?? 'closed'; clearTimeout(timer); done(); });
  `;
  const args = [host, String(port), String(timeoutMs), ...payloads.map((p) => p.toString('hex'))];
  const out = await country.exec(
    [process.execPath, '-e', script, ...args],
    undefined,
    timeoutMs + 10_000,
  );
  return JSON.parse(out) as { connected: boolean; replies: string[]; end: ConnectOutcome };
}

/**
 * A TLS handshake from inside the country to host:port (any certificate: this is the censor's
 * view, not the client's trust): 'ok' once it completes, else how it failed.
 */
export async function tlsHandshake(
  country: Country,
  host: string,
  port: number,
  timeoutMs = 3000,
): Promise<ConnectOutcome> {
  const script = `
    const tls = require('node:tls');
    const [host, port, timeout] = process.argv.slice(1);
    const end = (what) => { console.log(what); process.exit(0); };
    setTimeout(() => end('timeout'), Number(timeout));
    const socket = tls.connect({ host, port: Number(port), rejectUnauthorized: false, servername: 'scn.test' });
    socket.on('secureConnect', () => end('ok'));
    socket.on('error', (e) => end(e.code === 'ECONNRESET' ? 'reset' : e.code === 'ECONNREFUSED' ? 'refused' : e.code || e.message));
  `;
  const out = await country.exec(
    [process.execPath, '-e', script, host, String(port), String(timeoutMs)],
    undefined,
    timeoutMs + 10_000,
  );
  return out.trim();
}

/** The first bytes of a TLS 1.2+ ClientHello record (content type 22, version 3.1). */
export const CLIENT_HELLO_START = Buffer.from('160301020001', 'hex');

/** A process inside the country: its output so far, and a stop that waits for the exit. */
export function spawnIn(
  country: Country,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn('ip', ['netns', 'exec', country.netns.name, command, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return supervise(child);
}

/** Collects a child's output; stop() sends SIGTERM, SIGKILL after 10 s, and waits. */
export function supervise(child: ChildProcess): {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
} {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * SIGKILLs every process whose command line mentions `text` (a suite's temporary folder): a
 * proxy core whose agent was killed before it could stop it would outlive the suite.
 */
export function killProcessesMentioning(text: string): number[] {
  const killed: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) continue;
      process.kill(Number(entry), 'SIGKILL');
      killed.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return killed;
}
