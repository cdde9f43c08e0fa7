import { createHash, randomBytes } from 'node:crypto';
import { Duplex } from 'node:stream';

/**
 * The least of a WebSocket client (RFC 6455) that VLESS over `ws` needs: the HTTP upgrade and
 * binary frames, masked as a client must mask them. No extensions, no fragmentation of what it
 * sends; pings are answered; a close frame ends the stream.
 */

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_HEADER_BYTES = 8192;

export class WebSocketRefused extends Error {}

/** The frame bytes of one message from the client (masked). */
export function encodeClientFrame(opcode: number, payload: Buffer, mask = randomBytes(4)): Buffer {
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x80 | opcode, 0x80 | length])
      : length < 65536
        ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), bigLength(length)]);
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) masked[i] = payload[i]! ^ mask[i % 4]!;
  return Buffer.concat([head, mask, masked]);
}

function bigLength(length: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(length));
  return buffer;
}

export interface WebSocketFrame {
  opcode: number;
  payload: Buffer;
}

/** The first whole frame at the front of `buffer` and the bytes after it, or null (need more). */
export function decodeFrame(buffer: Buffer): { frame: WebSocketFrame; rest: Buffer } | null {
  if (buffer.length < 2) return null;
  const opcode = buffer[0]! & 0x0f;
  const masked = (buffer[1]! & 0x80) !== 0;
  let length = buffer[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return null;
    length = Number(buffer.readBigUInt64BE(2));
    offset = 10;
  }
  const maskKey = masked ? buffer.subarray(offset, offset + 4) : null;
  if (masked) offset += 4;
  if (buffer.length < offset + length) return null;
  const payload = Buffer.from(buffer.subarray(offset, offset + length));
  if (maskKey)
    for (let i = 0; i < payload.length; i += 1) payload[i] = payload[i]! ^ maskKey[i % 4]!;
  return { frame: { opcode, payload }, rest: buffer.subarray(offset + length) };
}

/** Binary messages over an upgraded connection, as a byte stream. */
class WebSocketStream extends Duplex {
  private pending: Buffer;

  constructor(
    private readonly socket: Duplex,
    leftover: Buffer,
  ) {
    super();
    this.pending = leftover;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => this.push(null));
    socket.on('close', () => this.destroy());
    socket.on('error', (error) => this.destroy(error));
    if (leftover.length > 0) queueMicrotask(() => this.receive(Buffer.alloc(0)));
  }

  private receive(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      const decoded = decodeFrame(this.pending);
      if (!decoded) return;
      this.pending = decoded.rest;
      const { opcode, payload } = decoded.frame;
      if (opcode === 0x8) {
        this.push(null);
        return;
      }
      if (opcode === 0x9) this.socket.write(encodeClientFrame(0xa, payload));
      else if (opcode <= 0x2 && payload.length > 0 && !this.push(payload)) this.socket.pause();
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.socket.write(encodeClientFrame(0x2, chunk), done);
  }

  override _read(): void {
    this.socket.resume();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.socket.destroy();
    done(error);
  }
}

/**
 * Upgrades `socket` (TCP or TLS, already connected) to a WebSocket at `path`; rejects with
 * WebSocketRefused when the answer is not a valid `101 Switching Protocols`, and with the
 * socket's own error (or a plain Error when it closes) otherwise.
 */
export function upgradeToWebSocket(socket: Duplex, host: string, path: string): Promise<Duplex> {
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(`${key}${WEBSOCKET_GUID}`).digest('base64');
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onEnd = () => onError(new Error('closed before the WebSocket upgrade was answered'));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEADER_BYTES) onError(new WebSocketRefused('no HTTP answer'));
        return;
      }
      cleanup();
      socket.pause();
      const lines = head.subarray(0, end).toString('latin1').split('\r\n');
      const acceptHeader = lines
        .map((line) => /^sec-websocket-accept:\s*(\S+)/i.exec(line)?.[1])
        .find(Boolean);
      if (!/^HTTP\/1\.1 101\b/.test(lines[0] ?? '') || acceptHeader !== accept) {
        reject(new WebSocketRefused(`WebSocket upgrade refused: ${(lines[0] ?? '').slice(0, 80)}`));
        return;
      }
      const stream = new WebSocketStream(socket, head.subarray(end + 4));
      resolve(stream);
      socket.resume();
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    socket.write(
      `GET ${path || '/'} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n` +
        `User-Agent: scn-vless-probe\r\n\r\n`,
    );
  });
}
