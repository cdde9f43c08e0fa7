import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildVlessLink, subscriptionCreationResponseSchema } from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';
import { startVlessTestHost, type VlessTestHost } from '../support/vless-netns';
import { describeNeeding } from '../support/requirements';

/**
 * A real v2ray client configured from the feed in its JSON format (`?format=v2ray`)
 * carries traffic through a real v2ray VLESS server on a test host, plain and over TLS. The only
 * changes to the served configuration are the local SOCKS port (several runs share the machine)
 * and, for TLS, the test host's self-signed certificate added as trusted (what installing a CA
 * on a device does); nothing else is touched.
 */

const V2RAY = '/usr/bin/v2ray';
const now = new Date('2026-03-01T12:00:00.000Z');
let t: TestApp;
let host: VlessTestHost;
let operator: string;
const dir = mkdtempSync(join(tmpdir(), 'scn-feed-traffic-'));
const children: ChildProcess[] = [];

const describeLive = describeNeeding(
  ['v2ray', 'netns'],
  'a v2ray client from the feed, through a test host',
);
beforeAll(async () => {
  host = await startVlessTestHost(randomUUID(), 'fmt19');
  t = await startTestApp(
    { PUBLIC_URL: 'https://portal.scn.example', LAUNCH_PERIOD_ENDS: '2026-06-30' },
    { clock: { now: () => now } },
  );
  operator = await insertAccount(t.db);
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await t?.close();
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A subscription of one manual server with this link; its feed in v2ray JSON. */
async function v2rayFeedFor(name: string, port: number, params: Record<string, string>) {
  const link = buildVlessLink({
    uuid: host.uuid,
    host: host.serverAddress,
    port,
    name,
    params: { encryption: 'none', ...params },
  });
  const [id] = await insertServers(
    t.db,
    [
      {
        ownerUuid: operator,
        name,
        source: 'manual',
        host: host.serverAddress,
        port,
        vlessString: link,
        checkedAt: now,
      },
    ],
    now,
  );
  const client = await registerAccount(t, { userType: 'client' });
  const created = subscriptionCreationResponseSchema.parse(
    (await buy(t, client, [id!], { billingCycle: 'monthly' }).expect(200)).body,
  );
  const response = await t
    .http()
    .get(`${new URL(created.subscriptionUrl).pathname}?format=v2ray`)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    })
    .expect(200);
  return JSON.parse(response.body as string);
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** HTTP GET of the probe through a SOCKS5 proxy; resolves with the status line. */
function getThroughSocks(socksPort: number, target: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socksPort, '127.0.0.1');
    let phase = 'greeting';
    let buffer = Buffer.alloc(0);
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(why));
    };
    socket.setTimeout(3000, () => fail(`timeout in ${phase}`));
    socket.on('error', (error) => fail(error.message));
    socket.on('close', () => fail(`closed in ${phase}`));
    socket.on('connect', () => socket.write(Buffer.from([5, 1, 0])));
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (phase === 'greeting' && buffer.length >= 2) {
        if (buffer[1] !== 0) return fail('greeting refused');
        buffer = buffer.subarray(2);
        phase = 'connect';
        const address = Buffer.from(target.hostname.split('.').map(Number));
        const port = Buffer.alloc(2);
        port.writeUInt16BE(Number(target.port));
        socket.write(Buffer.concat([Buffer.from([5, 1, 0, 1]), address, port]));
      }
      if (phase === 'connect' && buffer.length >= 10) {
        if (buffer[1] !== 0) return fail(`connect refused (${buffer[1]})`);
        buffer = buffer.subarray(10);
        phase = 'http';
        socket.write(
          `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`,
        );
      }
      if (phase === 'http') {
        const text = buffer.toString('latin1');
        if (text.includes('\r\n')) {
          socket.destroy();
          resolve(text.slice(0, text.indexOf('\r\n')));
        }
      }
    });
  });
}

/** Runs v2ray with the configuration and fetches the probe through it (retrying while it starts). */
async function fetchThrough(config: Record<string, unknown>, patienceMs = 10_000): Promise<string> {
  const socksPort = await freePort();
  const inbounds = config.inbounds as { tag: string; port: number }[];
  const socks = inbounds.find((inbound) => inbound.tag === 'socks')!;
  socks.port = socksPort;
  config.inbounds = [socks];
  const file = join(dir, `client-${socksPort}.json`);
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(V2RAY, ['-config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  try {
    const deadline = Date.now() + patienceMs;
    for (;;) {
      try {
        return await getThroughSocks(socksPort, new URL(host.probeUrl));
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`${(error as Error).message}; v2ray: ${log.slice(-1500)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    child.kill('SIGKILL');
  }
}

describeLive('a v2ray client configured from the feed in v2ray JSON', () => {
  it('should carry traffic through the subscription server over plain VLESS', async () => {
    const config = await v2rayFeedFor('Plain test host', host.vlessPort, {
      security: 'none',
      type: 'tcp',
    });
    const hits = host.probeHits();
    expect(await fetchThrough(config)).toBe('HTTP/1.1 200 OK');
    expect(host.probeHits()).toBeGreaterThan(hits);
  });

  it('should carry traffic over TLS once the test certificate is trusted, and not before', async () => {
    const config = await v2rayFeedFor('TLS test host', host.vlessTlsPort, {
      security: 'tls',
      sni: host.tlsName,
      type: 'tcp',
    });
    const stream = config.outbounds[0].streamSettings;
    expect(stream).toMatchObject({ security: 'tls', tlsSettings: { serverName: host.tlsName } });
    // As served: the self-signed certificate is refused, so nothing gets through.
    await expect(fetchThrough(structuredClone(config), 3000)).rejects.toThrow(/closed|timeout/);
    stream.tlsSettings.certificates = [
      { usage: 'verify', certificate: host.certificate.trim().split('\n') },
    ];
    const hits = host.probeHits();
    expect(await fetchThrough(config)).toBe('HTTP/1.1 200 OK');
    expect(host.probeHits()).toBeGreaterThan(hits);
  }, 40_000);
});
