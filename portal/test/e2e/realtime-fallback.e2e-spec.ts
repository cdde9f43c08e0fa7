import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WALLET_ROUTES } from '@scn/proto';
import type { Page } from 'playwright-core';
import { registerAccount } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Realtime through a network that refuses WebSocket (docs/deploy.md "Sticky sessions"): the
 * portal is opened through a loopback proxy that answers every `Upgrade: websocket` with 400 and
 * forwards every other request to the control plane, as some censored networks do. The socket
 * must fall back to HTTP long-polling and still deliver a realtime event to the page.
 */

const suite = browserSuite();
const { openPage } = suite;

interface RefusingProxy {
  url: string;
  refusedUpgrades: number;
  pollingRequests: number;
  close(): Promise<void>;
}

/**
 * A reverse proxy to `upstream` that passes every request but WebSocket upgrades: those it
 * refuses (400), or holds open unanswered as a network that drops them silently does.
 */
async function startRefusingProxy(
  upstream: string,
  upgrades: 'refuse' | 'hold',
): Promise<RefusingProxy> {
  const target = new URL(upstream);
  const state = { refusedUpgrades: 0, pollingRequests: 0 };
  let ownOrigin = '';
  const server: Server = createServer((incoming, outgoing) => {
    if (incoming.url?.startsWith('/socket.io/') && incoming.url.includes('transport=polling'))
      state.pollingRequests += 1;
    const headers = { ...incoming.headers, host: target.host };
    // The control plane's PUBLIC_URL is its own address, not this proxy's: present the page's
    // origin as the one it serves, as the real proxy's site would be (the Origin check stays on).
    if (headers.origin === ownOrigin) headers.origin = target.origin;
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  const held = new Set<Duplex>();
  server.on('upgrade', (_incoming, socket: Duplex) => {
    state.refusedUpgrades += 1;
    if (upgrades === 'hold') {
      held.add(socket);
      socket.on('close', () => held.delete(socket));
      socket.on('error', () => undefined);
      return;
    }
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ownOrigin = url;
  return {
    url,
    get refusedUpgrades() {
      return state.refusedUpgrades;
    },
    get pollingRequests() {
      return state.pollingRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of held) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const proxies: RefusingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

/** Resolves once the page asks the control plane for `path` (a refetch after an event). */
function nextRequestTo(page: Page, path: string, timeout = 15_000): Promise<unknown> {
  return page.waitForRequest((request) => new URL(request.url()).pathname.startsWith(path), {
    timeout,
  });
}

/**
 * Opens the client dashboard through `proxy`, waits for its socket's polling session (a request
 * with its sid) and checks that a realtime event, published as any replica publishes one
 * (pg_notify), reaches the page: the dashboard refetches the wallet.
 */
async function expectEventsOverPolling(proxy: RefusingProxy, connectMs: number): Promise<void> {
  const client = await registerAccount(suite.stack, 'client');
  const page = await openPage({ account: client });
  const websockets: string[] = [];
  page.on('websocket', (socket) => websockets.push(socket.url()));
  const walletPath = WALLET_ROUTES.clientWallet(client.uuid);
  const loaded = nextRequestTo(page, walletPath);
  const polling = page.waitForRequest(
    (request) => /\/socket\.io\/\?.*transport=polling.*sid=/.test(request.url()),
    { timeout: connectMs },
  );
  await page.goto(`${proxy.url}/client-dashboard`);
  await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();
  await loaded;

  // The socket tried WebSocket, which the proxy refused or held, and went on polling.
  expect(new URL((await polling).url()).origin).toBe(proxy.url);
  expect(proxy.refusedUpgrades).toBeGreaterThan(0);
  expect(websockets.length).toBeGreaterThan(0);

  const refetched = nextRequestTo(page, walletPath);
  await suite.stack.db.query(`SELECT pg_notify('scn_realtime', $1)`, [
    JSON.stringify({ event: 'server-list-updated', reason: 'updated' }),
  ]);
  await refetched;
  expect(proxy.pollingRequests).toBeGreaterThan(1);
}

it('falls back to long-polling at once when WebSocket upgrades are refused, and still receives realtime events', async () => {
  const proxy = await startRefusingProxy(suite.stack.baseUrl, 'refuse');
  proxies.push(proxy);
  await expectEventsOverPolling(proxy, 15_000);
});

it('starts with long-polling after an attempt whose WebSocket upgrade hung, and still receives realtime events', async () => {
  const proxy = await startRefusingProxy(suite.stack.baseUrl, 'hold');
  proxies.push(proxy);
  // The first attempt ends at the socket's connect timeout (20 s, portal/src/lib/realtime.ts).
  await expectEventsOverPolling(proxy, 35_000);
}, 60_000);
