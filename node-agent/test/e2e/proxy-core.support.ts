import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

const handedOut = new Set<number>();

/**
 * A loopback port for a process the test starts, which binds it itself: drawn at random below the
 * kernel's ephemeral range (32768-60999), where no outgoing connection takes a port as its source
 * between this check and the child's bind (an OS-chosen free port there was taken so, once in a
 * while, and a v2ray core then failed with "address already in use"); checked free, never handed
 * out twice by one process.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (handedOut.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) {
      handedOut.add(port);
      return port;
    }
  }
}

export interface LocalHttpServer {
  port: number;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that answers every request with `body`. */
export async function startHttpServer(body: string): Promise<LocalHttpServer> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'text/plain',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('HTTP server has no port');
  return {
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP server on `host` that counts the requests it got. */
export async function countingServer(host: string): Promise<{
  port: number;
  hits: () => number;
  close: () => Promise<void>;
}> {
  let hits = 0;
  const server = http.createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-length': 2, connection: 'close' });
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    hits: () => hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface HttpResult {
  status: number;
  body: string;
}

/**
 * GET http://127.0.0.1:targetPort/ through a SOCKS5 proxy (no auth, CONNECT, IPv4). Rejects on
 * any failure: refusal, a closed connection, no HTTP answer within timeoutMs.
 */
export function socksHttpGet(
  socksPort: number,
  targetPort: number,
  timeoutMs = 3000,
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socksPort, '127.0.0.1');
    let phase: 'greeting' | 'connect' | 'http' = 'greeting';
    let buffer = Buffer.alloc(0);
    const fail = (reason: string) => {
      socket.destroy();
      reject(new Error(reason));
    };
    socket.setTimeout(timeoutMs, () => fail(`timeout in phase ${phase}`));
    socket.on('error', (error) => fail(error.message));
    socket.on('close', () => fail(`closed in phase ${phase}`));
    socket.on('connect', () => socket.write(Buffer.from([5, 1, 0])));
    // The core forwards the server's close only after its idle timeouts: a response is complete
    // when Content-Length bytes of body arrived.
    const finishWhenComplete = () => {
      const text = buffer.toString('latin1');
      const separator = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, separator));
      if (separator < 0 || !length) return;
      const body = buffer.subarray(separator + 4);
      if (body.length < Number(length[1])) return;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      socket.destroy();
      resolve({ status: Number(status?.[1] ?? 0), body: body.toString('utf8') });
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (phase === 'greeting' && buffer.length >= 2) {
        if (buffer[0] !== 5 || buffer[1] !== 0) return fail('SOCKS greeting refused');
        buffer = buffer.subarray(2);
        phase = 'connect';
        const port = Buffer.alloc(2);
        port.writeUInt16BE(targetPort);
        socket.write(Buffer.concat([Buffer.from([5, 1, 0, 1, 127, 0, 0, 1]), port]));
      }
      // The reply to a CONNECT with an IPv4 bound address is 10 bytes.
      if (phase === 'connect' && buffer.length >= 10) {
        if (buffer[1] !== 0) return fail(`SOCKS CONNECT refused (${buffer[1]})`);
        buffer = buffer.subarray(10);
        phase = 'http';
        socket.write(
          `GET / HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nConnection: close\r\n\r\n`,
        );
      }
      if (phase === 'http') finishWhenComplete();
    });
  });
}

/** Calls `attempt` until it resolves or `timeoutMs` passes; rejects with the last error. */
export async function eventually<T>(
  attempt: () => Promise<T>,
  timeoutMs: number,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

export interface ClientRoute {
  socksPort: number;
  uuid: string;
}

/**
 * A second v2ray acting as the VLESS client: one SOCKS inbound per route, each sent to the node
 * with its own UUID. Resolves when every SOCKS port accepts connections.
 */
export async function startVlessClient(
  binary: string,
  workDir: string,
  nodePort: number,
  routes: readonly ClientRoute[],
  /** How to reach the node (clientStreamSettings in tls-client.support.ts); default plain tcp. */
  streamSettings: Record<string, unknown> = { network: 'tcp', security: 'none' },
): Promise<ChildProcess> {
  const config = {
    log: { loglevel: 'warning', access: 'none' },
    inbounds: routes.map((route, index) => ({
      tag: `socks-${index}`,
      listen: '127.0.0.1',
      port: route.socksPort,
      protocol: 'socks',
      settings: { auth: 'noauth', udp: false },
    })),
    outbounds: routes.map((route, index) => ({
      tag: `vless-${index}`,
      protocol: 'vless',
      settings: {
        vnext: [
          {
            address: '127.0.0.1',
            port: nodePort,
            users: [{ id: route.uuid, encryption: 'none', level: 0 }],
          },
        ],
      },
      streamSettings,
    })),
    routing: {
      rules: routes.map((_route, index) => ({
        type: 'field',
        inboundTag: [`socks-${index}`],
        outboundTag: `vless-${index}`,
      })),
    },
  };
  const configFile = path.join(workDir, 'client-config.json');
  await writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
  const child = spawn(binary, ['-config', configFile], { stdio: 'ignore' });
  for (const route of routes) {
    await eventually(() => tcpConnects(route.socksPort), 5000, 50);
  }
  return child;
}

function tcpConnects(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

/** SIGKILLs the child if it still runs and waits for its exit. */
export async function killAndWait(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
