import dgram from 'node:dgram';
import { connect, type Socket } from 'node:net';

/**
 * A SOCKS5 client (RFC 1928) for tests that drive a proxy core from the outside as an app does:
 * a TCP CONNECT with an HTTP GET, and a UDP ASSOCIATE that relays one datagram (what a phone's
 * VPN does with a DNS question).
 */

/** Reads from the socket until `enough(buffer)` says how many bytes the reply takes. */
function reader(socket: Socket) {
  let buffer = Buffer.alloc(0);
  const waiting: (() => void)[] = [];
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    waiting.splice(0).forEach((wake) => wake());
  });
  return async (size: (data: Buffer) => number | null): Promise<Buffer> => {
    for (;;) {
      const needed = size(buffer);
      if (needed !== null && buffer.length >= needed) {
        const reply = buffer.subarray(0, needed);
        buffer = buffer.subarray(needed);
        return reply;
      }
      await new Promise<void>((resolve, reject) => {
        waiting.push(resolve);
        socket.once('close', () => reject(new Error('the proxy closed the connection')));
      });
    }
  };
}

/** The length of a SOCKS5 reply (VER REP RSV ATYP BND.ADDR BND.PORT), once its type is in. */
function replyLength(data: Buffer): number | null {
  if (data.length < 5) return null;
  const atyp = data[3];
  if (atyp === 1) return 10;
  if (atyp === 4) return 22;
  return 7 + data[4]!;
}

async function open(socksPort: number, timeoutMs: number) {
  const socket = connect(socksPort, '127.0.0.1');
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error('SOCKS timeout')));
  const read = reader(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.write(Buffer.from([5, 1, 0]));
  const greeting = await read(() => 2);
  if (greeting[1] !== 0) throw new Error('SOCKS greeting refused');
  return { socket, read };
}

function ipv4Address(host: string, port: number): Buffer {
  const address = Buffer.alloc(7);
  address[0] = 1;
  Buffer.from(host.split('.').map(Number)).copy(address, 1);
  address.writeUInt16BE(port, 5);
  return address;
}

/** GET `url` (http, IPv4 host) through the proxy; resolves with the status line. */
export async function socksHttpGet(socksPort: number, url: URL, timeoutMs = 3000): Promise<string> {
  const { socket, read } = await open(socksPort, timeoutMs);
  try {
    socket.write(
      Buffer.concat([Buffer.from([5, 1, 0]), ipv4Address(url.hostname, Number(url.port))]),
    );
    const reply = await read(replyLength);
    if (reply[1] !== 0) throw new Error(`SOCKS connect refused (${reply[1]})`);
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
    const head = await read((data) => {
      const end = data.indexOf('\r\n');
      return end < 0 ? null : end;
    });
    return head.toString('latin1');
  } finally {
    socket.destroy();
  }
}

/**
 * Sends one datagram to `target` through a UDP ASSOCIATE and resolves with the payload of the
 * first datagram relayed back.
 */
export async function socksUdpExchange(
  socksPort: number,
  target: { host: string; port: number },
  payload: Buffer,
  timeoutMs = 3000,
): Promise<Buffer> {
  const { socket, read } = await open(socksPort, timeoutMs);
  const udp = dgram.createSocket('udp4');
  try {
    socket.write(Buffer.concat([Buffer.from([5, 3, 0]), ipv4Address('0.0.0.0', 0)]));
    const reply = await read(replyLength);
    if (reply[1] !== 0 || reply[3] !== 1) throw new Error(`UDP ASSOCIATE refused (${reply[1]})`);
    const relayHost = [...reply.subarray(4, 8)].join('.');
    const relayPort = reply.readUInt16BE(8);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const answer = new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no UDP answer through SOCKS')), timeoutMs);
      udp.once('message', (message) => {
        clearTimeout(timer);
        // RSV(2) FRAG(1) ATYP(1) ADDR PORT, then the payload.
        resolve(message.subarray(message[3] === 1 ? 10 : message[3] === 4 ? 22 : 7 + message[4]!));
      });
    });
    const header = Buffer.concat([Buffer.from([0, 0, 0]), ipv4Address(target.host, target.port)]);
    udp.send(
      Buffer.concat([header, payload]),
      relayPort,
      relayHost === '0.0.0.0' ? '127.0.0.1' : relayHost,
    );
    return await answer;
  } finally {
    udp.close();
    socket.destroy();
  }
}
