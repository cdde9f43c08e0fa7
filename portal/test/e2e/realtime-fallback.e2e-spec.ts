import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A reverse proxy to `upstream` that refuses WebSocket upgrades and passes everything else. */
async function startRefusingProxy(upstream: string): Promise<RefusingProxy> {
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
  server.on('upgrade', (incoming, socket) => {
    state.refusedUpgrades += 1;
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
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let proxy: RefusingProxy;
beforeAll(async () => {
  proxy = await startRefusingProxy(suite.stack.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
});

/** Resolves once the page asks the control plane for `path` (a refetch after an event). */
function nextRequestTo(page: Page, path: string): Promise<unknown> {
  return page.waitForRequest((request) => new URL(request.url()).pathname.startsWith(path), {
    timeout: 15_000,
  });
}

it('falls back to long-polling when WebSocket upgrades are refused and still receives realtime events', async () => {
  const client = await registerAccount(suite.stack, 'client');
  const page = await openPage({ account: client });
  const websockets: string[] = [];
  page.on('websocket', (socket) => websockets.push(socket.url()));
  const walletPath = WALLET_ROUTES.clientWallet(client.uuid);
  const loaded = nextRequestTo(page, walletPath);
  await page.goto(`${proxy.url}/client-dashboard`);
  await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();
  await loaded;

  // The socket tried WebSocket, was refused, and holds a polling session (a request with its sid).
  const polling = await page.waitForRequest(
    (request) => /\/socket\.io\/\?.*transport=polling.*sid=/.test(request.url()),
    { timeout: 15_000 },
  );
  expect(new URL(polling.url()).origin).toBe(proxy.url);
  expect(proxy.refusedUpgrades).toBeGreaterThan(0);
  expect(websockets.length).toBeGreaterThan(0);

  // A realtime event, published as any replica publishes one (pg_notify): the dashboard hears
  // it over polling and refetches the wallet.
  const refetched = nextRequestTo(page, walletPath);
  await suite.stack.db.query(`SELECT pg_notify('scn_realtime', $1)`, [
    JSON.stringify({ event: 'server-list-updated', reason: 'updated' }),
  ]);
  await refetched;
  expect(proxy.pollingRequests).toBeGreaterThan(1);
});
