import net, { isIPv4, isIPv6 } from 'node:net';

/**
 * A SOCKS5 client (no auth, CONNECT) that names its target the way a VLESS client's app would:
 * an IPv4 or IPv6 literal, or a domain name the far end resolves. The v2ray client passes the
 * target on to the node unchanged.
 */

function targetAddress(host: string, port: number): Buffer {
  const portBytes = Buffer.alloc(2);
  portBytes.writeUInt16BE(port);
  if (isIPv4(host)) {
    return Buffer.concat([Buffer.from([1]), Buffer.from(host.split('.').map(Number)), portBytes]);
  }
  if (isIPv6(host)) return Buffer.concat([Buffer.from([4]), ipv6Bytes(host), portBytes]);
  const name = Buffer.from(host, 'utf8');
  return Buffer.concat([Buffer.from([3, name.length]), name, portBytes]);
}

/** The 16 bytes of an IPv6 literal, `::` and an embedded IPv4 tail (`::ffff:127.0.0.1`) included. */
function ipv6Bytes(address: string): Buffer {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    text = `${text.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const parts =
    tail === undefined
      ? headParts
      : [
          ...headParts,
          ...Array<string>(8 - headParts.length - tailParts.length).fill('0'),
          ...tailParts,
        ];
  const bytes = Buffer.alloc(16);
  parts.forEach((part, index) => bytes.writeUInt16BE(parseInt(part, 16), index * 2));
  return bytes;
}

export interface TunnelExchange {
  /** Bytes the target sent back before the connection closed or the wait ended. */
  received: Buffer;
  /** How the exchange ended. */
  ended: 'closed' | 'timeout';
}

/**
 * Opens host:port through the SOCKS proxy, writes `payload`, and collects what comes back until
 * the connection closes or `waitMs` passes. v2ray's SOCKS inbound accepts the CONNECT before it
 * dials, so a refused destination shows as a close with nothing received.
 */
export function exchangeThroughSocks(
  socksPort: number,
  host: string,
  port: number,
  payload: Buffer | string,
  waitMs = 3000,
): Promise<TunnelExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socksPort, '127.0.0.1');
    let phase: 'greeting' | 'connect' | 'data' = 'greeting';
    let buffer = Buffer.alloc(0);
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (ended: TunnelExchange['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, ended });
    };
    const timer = setTimeout(() => finish('timeout'), waitMs);
    socket.on('error', (error) => {
      if (phase === 'data') return finish('closed');
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => finish('closed'));
    socket.on('connect', () => socket.write(Buffer.from([5, 1, 0])));
    socket.on('data', (chunk: Buffer) => {
      if (phase === 'data') {
        received = Buffer.concat([received, chunk]);
        return;
      }
      buffer = Buffer.concat([buffer, chunk]);
      if (phase === 'greeting' && buffer.length >= 2) {
        buffer = buffer.subarray(2);
        phase = 'connect';
        socket.write(Buffer.concat([Buffer.from([5, 1, 0]), targetAddress(host, port)]));
      }
      if (phase === 'connect' && buffer.length >= 5) {
        const atyp = buffer[3];
        const length = atyp === 1 ? 10 : atyp === 4 ? 22 : 7 + (buffer[4] ?? 0);
        if (buffer.length < length) return;
        if (buffer[1] !== 0) return finish('closed');
        received = buffer.subarray(length);
        phase = 'data';
        socket.write(payload);
      }
    });
  });
}

export interface TunnelHttpResult {
  status: number;
  body: string;
}

/** GET http://host:port/ through the SOCKS proxy; null when nothing came back. */
export async function httpGetThroughSocks(
  socksPort: number,
  host: string,
  port: number,
  waitMs = 3000,
): Promise<TunnelHttpResult | null> {
  const hostHeader = isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
  const { received } = await exchangeThroughSocks(
    socksPort,
    host,
    port,
    `GET / HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`,
    waitMs,
  );
  const text = received.toString('utf8');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!status) return null;
  return { status: Number(status[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

/** The client preface every HTTP/2 (gRPC) connection starts with. */
export const HTTP2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
