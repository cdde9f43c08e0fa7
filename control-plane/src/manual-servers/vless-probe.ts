import { connect as netConnect, isIP, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

/**
 * A minimal VLESS client (the request and response headers of XTLS VLESS version 0), enough to
 * prove that a server speaks VLESS and accepts a UUID: it asks the server to open a TCP
 * connection to the probe target and reads the target's HTTP answer back through it. A server
 * that refuses the UUID closes the connection (or hands it to a fallback, whose answer is not a
 * VLESS header); a service that is not VLESS answers something else or nothing.
 */

/** Where the server is asked to connect: an HTTP(S) endpoint that answers a GET (the probe target). */
export interface ProbeTarget {
  host: string;
  port: number;
  tls: boolean;
  /** Path and query of the GET. */
  path: string;
}

export interface VlessCheck {
  /** The pinned, already checked address to connect to (never a name: see pinAddress). */
  address: string;
  port: number;
  uuid: string;
  security: 'none' | 'tls';
  /** TLS server name (the link's sni, else its host when that is a name). */
  serverName: string | null;
  target: ProbeTarget;
  timeoutMs: number;
  /** Trusted CA certificates instead of the system's (tests with their own CA only). */
  ca?: string;
}

export type VlessFailure =
  'connect_failed' | 'tls_failed' | 'closed' | 'not_vless' | 'no_answer' | 'timeout';

export type VlessCheckResult =
  { ok: true; connectMs: number } | { ok: false; reason: VlessFailure; detail: string };

export function probeTargetOf(url: string): ProbeTarget {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'https:';
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : tls ? 443 : 80,
    tls,
    path: `${parsed.pathname}${parsed.search}` || '/',
  };
}

/** The VLESS request header: version 0, UUID, no addons, command TCP, port, address. */
export function vlessRequestHeader(uuid: string, host: string, port: number): Buffer {
  const id = Buffer.from(uuid.replace(/-/g, ''), 'hex');
  if (id.length !== 16) throw new Error('not a UUID');
  let address: Buffer;
  if (isIP(host) === 4) address = Buffer.from([1, ...host.split('.').map(Number)]);
  else if (isIP(host) === 6) address = Buffer.concat([Buffer.from([3]), ipv6Buffer(host)]);
  else {
    const name = Buffer.from(host, 'ascii');
    address = Buffer.concat([Buffer.from([2, name.length]), name]);
  }
  const portBytes = Buffer.alloc(2);
  portBytes.writeUInt16BE(port);
  return Buffer.concat([Buffer.from([0]), id, Buffer.from([0, 1]), portBytes, address]);
}

function ipv6Buffer(address: string): Buffer {
  const [left, right] = address.split('::') as [string, string | undefined];
  const l = left ? left.split(':') : [];
  const r = right ? right.split(':') : [];
  const groups =
    right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  const buffer = Buffer.alloc(16);
  groups.forEach((group, i) => buffer.writeUInt16BE(parseInt(group, 16), i * 2));
  return buffer;
}

class CheckFailed extends Error {
  constructor(
    readonly reason: VlessFailure,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * The tunnel a VLESS connection carries after its headers, as a stream: the request header goes
 * with the first bytes written, and the response header (version 0, addons) is checked and
 * taken off the front of what comes back.
 */
class VlessTunnel extends Duplex {
  private header: Buffer | null;
  private pending = Buffer.alloc(0);
  private answered = false;
  private readonly socket: Socket;

  constructor(socket: Socket, header: Buffer) {
    super();
    this.socket = socket;
    this.header = header;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => {
      if (!this.answered) this.destroy(new CheckFailed('closed', 'closed without a VLESS answer'));
      else this.push(null);
    });
    socket.on('close', () => {
      if (!this.answered) this.destroy(new CheckFailed('closed', 'closed without a VLESS answer'));
    });
    socket.on('error', (error) => this.destroy(error));
  }

  /** Whether the server sent a valid VLESS response header. */
  get isAnswered(): boolean {
    return this.answered;
  }

  private receive(chunk: Buffer): void {
    if (this.answered) {
      if (!this.push(chunk)) this.socket.pause();
      return;
    }
    this.pending = Buffer.concat([this.pending, chunk]);
    if (this.pending[0] !== 0) {
      this.destroy(new CheckFailed('not_vless', 'the answer is not a VLESS response header'));
      return;
    }
    if (this.pending.length < 2) return;
    const end = 2 + this.pending[1]!;
    if (this.pending.length < end) return;
    this.answered = true;
    const rest = this.pending.subarray(end);
    this.pending = Buffer.alloc(0);
    if (rest.length > 0) this.push(rest);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    const data = this.header ? Buffer.concat([this.header, chunk]) : chunk;
    this.header = null;
    this.socket.write(data, done);
  }

  override _read(): void {
    this.socket.resume();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.socket.destroy();
    done(error);
  }
}

/** Runs one check; never throws. */
export async function checkVless(check: VlessCheck): Promise<VlessCheckResult> {
  const sockets: Array<{ destroy(): void }> = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CheckFailed('timeout', `no answer within ${check.timeoutMs} ms`)),
        check.timeoutMs,
      );
    });
    return await Promise.race([run(check, sockets), timeout]);
  } catch (error) {
    if (error instanceof CheckFailed)
      return { ok: false, reason: error.reason, detail: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: 'closed', detail: message };
  } finally {
    clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  }
}

async function run(
  check: VlessCheck,
  sockets: Array<{ destroy(): void }>,
): Promise<VlessCheckResult> {
  const started = process.hrtime.bigint();
  const socket = await open(check, sockets);
  const connectMs = Math.max(1, Math.round(Number(process.hrtime.bigint() - started) / 1e6));
  const tunnel = new VlessTunnel(
    socket,
    vlessRequestHeader(check.uuid, check.target.host, check.target.port),
  );
  sockets.push(tunnel);
  let stream: Duplex = tunnel;
  if (check.target.tls) {
    const inner = tlsConnect({
      socket: tunnel,
      // The name (or IP) the certificate is checked against; the socket is the tunnel.
      host: check.target.host,
      servername: isIP(check.target.host) ? undefined : check.target.host,
      ...(check.ca ? { ca: check.ca } : {}),
    });
    sockets.push(inner);
    stream = inner;
  }
  const hostHeader = isIP(check.target.host) === 6 ? `[${check.target.host}]` : check.target.host;
  stream.write(
    `GET ${check.target.path} HTTP/1.1\r\nHost: ${hostHeader}\r\nUser-Agent: scn-vless-probe\r\n` +
      `Accept: */*\r\nConnection: close\r\n\r\n`,
  );
  const firstLine = await readLine(stream, tunnel);
  if (!/^HTTP\/1\.[01] \d{3}/.test(firstLine)) {
    throw new CheckFailed('no_answer', 'the probe target did not answer through the server');
  }
  return { ok: true, connectMs };
}

/** Connects to the pinned address (plain TCP, or TLS checked against the server name). */
function open(check: VlessCheck, sockets: Array<{ destroy(): void }>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (check.security === 'tls') {
      const socket: TLSSocket = tlsConnect({
        host: check.address,
        port: check.port,
        servername: check.serverName ?? undefined,
        ...(check.ca ? { ca: check.ca } : {}),
      });
      sockets.push(socket);
      socket.once('secureConnect', () => resolve(socket));
      socket.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new CheckFailed(
            error.code && /CERT|SSL|TLS|SELF_SIGNED|HOSTNAME/.test(error.code)
              ? 'tls_failed'
              : 'connect_failed',
            error.message,
          ),
        ),
      );
      return;
    }
    const socket = netConnect({ host: check.address, port: check.port });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('error', (error) => reject(new CheckFailed('connect_failed', error.message)));
  });
}

/** The first line of what comes back through the tunnel. */
function readLine(stream: Duplex, tunnel: VlessTunnel): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const fail = (error: Error) =>
      reject(
        error instanceof CheckFailed
          ? error
          : tunnel.isAnswered
            ? new CheckFailed('no_answer', error.message)
            : new CheckFailed('closed', error.message),
      );
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n');
      if (end >= 0) resolve(text.slice(0, end));
      else if (text.length > 1024) resolve(text);
    });
    stream.once('end', () =>
      fail(
        tunnel.isAnswered
          ? new CheckFailed('no_answer', 'the probe target did not answer through the server')
          : new CheckFailed('closed', 'closed without a VLESS answer'),
      ),
    );
    stream.once('error', fail);
    tunnel.once('error', fail);
  });
}
