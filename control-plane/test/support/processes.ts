import net from 'node:net';
import type { Response } from 'superagent';

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

/**
 * Polls `check` until it gives something other than null (a throw counts as null), or fails
 * naming `what` after `ms`: for a process under test that answers in its own time.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null>,
  ms: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check().catch(() => null);
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * A supertest parser that keeps the body as the bytes sent (`.buffer(true).parse(binaryBody)`),
 * for a download whose checksum is compared.
 */
export function binaryBody(
  response: Response,
  done: (error: Error | null, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => done(null, Buffer.concat(chunks)));
}
