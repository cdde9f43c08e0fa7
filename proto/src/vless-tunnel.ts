import { isIP } from 'node:net';
import { Duplex } from 'node:stream';

/**
 * The VLESS layer (the request and response headers of XTLS VLESS version 0) over any byte
 * stream: plain TCP, TLS, or a WebSocket.
 */

/** A failure the check knows how to name, with the VLESS layer's own words. */
export class VlessLayerFailure extends Error {
  constructor(
    readonly kind: 'not_vless' | 'closed' | 'no_answer',
    detail: string,
  ) {
    super(detail);
  }
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

/**
 * The tunnel a VLESS connection carries after its headers, as a stream: the request header goes
 * with the first bytes written, and the response header (version 0, addons) is checked and
 * taken off the front of what comes back.
 */
export class VlessTunnel extends Duplex {
  private header: Buffer | null;
  private pending = Buffer.alloc(0);
  private answered = false;

  constructor(
    private readonly socket: Duplex,
    header: Buffer,
  ) {
    super();
    this.header = header;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => {
      if (!this.answered)
        this.destroy(new VlessLayerFailure('closed', 'closed without a VLESS answer'));
      else this.push(null);
    });
    socket.on('close', () => {
      if (!this.answered)
        this.destroy(new VlessLayerFailure('closed', 'closed without a VLESS answer'));
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
      this.destroy(new VlessLayerFailure('not_vless', 'the answer is not a VLESS response header'));
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

/** The first line of what comes back through the tunnel. */
export function readFirstLine(stream: Duplex, tunnel: VlessTunnel): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const fail = (error: Error) =>
      reject(
        error instanceof VlessLayerFailure
          ? error
          : tunnel.isAnswered
            ? new VlessLayerFailure('no_answer', error.message)
            : new VlessLayerFailure('closed', error.message),
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
          ? new VlessLayerFailure('no_answer', 'the probe target did not answer through the server')
          : new VlessLayerFailure('closed', 'closed without a VLESS answer'),
      ),
    );
    stream.once('error', fail);
    tunnel.once('error', fail);
  });
}
