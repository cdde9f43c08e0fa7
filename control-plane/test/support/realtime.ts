import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type { TestApp } from './test-app';

/**
 * Serves the app on loopback and connects a browser's realtime socket to it, recording every
 * `server-list-updated` event in `events`; resolves once connected.
 */
export async function watchServerList(
  t: TestApp,
  events: Array<{ reason: string }>,
): Promise<Socket> {
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
  socket.on('server-list-updated', (event: { reason: string }) => events.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
