import net from 'node:net';
import type { Response } from 'superagent';

/** A loopback port free a moment ago (for a process the test starts, which binds it itself). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
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
