import net from 'node:net';

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
