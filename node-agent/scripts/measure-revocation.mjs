#!/usr/bin/env node
// How long do connections a client opened before its access was revoked keep working?
// (the figures are in docs/security.md "Tunnel isolation".)
//
//   npm run build --workspace node-agent && node node-agent/scripts/measure-revocation.mjs [audit-ms]
//
// A real v2ray node (the agent's XrayCore from dist/) and a real v2ray client, on loopback only.
// Three clients each open a connection, then all three are revoked at once (reconcile([])):
//   stream      a download that never ends (a line every 100 ms), one TCP connection per stream
//   stream-mux  the same through a client with mux enabled (one shared VLESS connection)
//   mux-new     a NEW stream opened 5 s after the revocation over that client's existing mux
//   idle        a connection that carries nothing after its first answer
// Without an argument no audit runs (the core alone); with one, the agent's CoreAuditScheduler
// runs every <audit-ms>. Each connection is watched for up to CAP_S seconds.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const dist = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist', 'src');
const { XrayCore } = require(path.join(dist, 'proxy-core/xray-core.js'));
const { CoreAuditScheduler } = require(path.join(dist, 'proxy-core/core-audit.js'));

const V2RAY = '/usr/bin/v2ray';
const CAP_S = Number(process.env.CAP_S ?? 360);
const auditMs = process.argv[2] ? Number(process.argv[2]) : null;
const UUIDS = {
  stream: '11111111-aaaa-4aaa-8aaa-111111111111',
  mux: '22222222-bbbb-4bbb-8bbb-222222222222',
  idle: '33333333-cccc-4ccc-8ccc-333333333333',
};

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The target: /stream never ends, /once answers and then keeps the connection open and silent.
const server = http.createServer((request, response) => {
  if (request.url === '/once') {
    response.writeHead(200, { 'content-length': '2' });
    response.end('ok');
    return;
  }
  response.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => response.write('tick\n'), 100);
  response.on('close', () => clearInterval(timer));
});
server.keepAliveTimeout = 3_600_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const targetPort = server.address().port;

const workDir = mkdtempSync(path.join(os.tmpdir(), 'scn-revocation-'));
const apiPort = await freePort();
const nodePort = await freePort();
const core = new XrayCore(
  {
    kind: 'v2ray',
    binary: V2RAY,
    workDir: path.join(workDir, 'core'),
    apiPort,
    inbound: { port: nodePort, listen: '127.0.0.1', security: 'none', network: 'tcp' },
    allowPrivateDestinations: true,
  },
  { revocationCutMinIntervalMs: 0 },
);
await core.start(Object.values(UUIDS));

const socks = { stream: await freePort(), mux: await freePort(), idle: await freePort() };
const routes = Object.keys(socks);
const clientConfig = {
  log: { loglevel: 'warning', access: 'none' },
  inbounds: routes.map((name) => ({
    tag: name,
    listen: '127.0.0.1',
    port: socks[name],
    protocol: 'socks',
    settings: { auth: 'noauth' },
  })),
  outbounds: routes.map((name) => ({
    tag: name,
    protocol: 'vless',
    settings: {
      vnext: [
        { address: '127.0.0.1', port: nodePort, users: [{ id: UUIDS[name], encryption: 'none' }] },
      ],
    },
    ...(name === 'mux' ? { mux: { enabled: true, concurrency: 8 } } : {}),
  })),
  routing: {
    rules: routes.map((name) => ({ type: 'field', inboundTag: [name], outboundTag: name })),
  },
};
writeFileSync(path.join(workDir, 'client.json'), JSON.stringify(clientConfig));
const client = spawn(V2RAY, ['-config', path.join(workDir, 'client.json')], { stdio: 'ignore' });
await sleep(1500);

/** A connection through SOCKS that GETs `url` and records when bytes arrive and when it ends. */
function open(name, url, keepAlive = false, label = name) {
  const socket = net.connect(socks[name], '127.0.0.1');
  const record = { name: label, lastByteAt: 0, closedAt: 0, bytes: 0 };
  let phase = 0;
  socket.on('error', () => undefined);
  socket.on('connect', () => socket.write(Buffer.from([5, 1, 0])));
  socket.on('data', (chunk) => {
    if (phase === 0) {
      phase = 1;
      const port = Buffer.alloc(2);
      port.writeUInt16BE(targetPort);
      socket.write(Buffer.concat([Buffer.from([5, 1, 0, 1, 127, 0, 0, 1]), port]));
      return;
    }
    if (phase === 1) {
      phase = 2;
      socket.write(
        `GET ${url} HTTP/1.1\r\nHost: x\r\nConnection: ${keepAlive ? 'keep-alive' : 'close'}\r\n\r\n`,
      );
      return;
    }
    record.bytes += chunk.length;
    record.lastByteAt = Date.now();
  });
  socket.on('close', () => (record.closedAt = Date.now()));
  return record;
}

const records = [open('stream', '/stream'), open('mux', '/stream'), open('idle', '/once', true)];
await sleep(2000);
const scheduler = auditMs
  ? new CoreAuditScheduler({
      core,
      store: { update: async () => undefined, current: {} },
      intervalMs: auditMs,
    })
  : null;
const revokedAt = Date.now();
await core.reconcile([]);
scheduler?.start();
await sleep(5000);
records.push(open('mux', '/stream', false, 'mux-new'));

const deadline = revokedAt + CAP_S * 1000;
while (Date.now() < deadline && records.some((r) => !r.closedAt)) await sleep(200);
const seconds = (at) => ((at - revokedAt) / 1000).toFixed(1);
console.log(`audit: ${auditMs ? `every ${auditMs} ms` : 'none'}; cap ${CAP_S} s`);
for (const r of records) {
  const alive = r.closedAt ? `closed after ${seconds(r.closedAt)} s` : `still open at ${CAP_S} s`;
  const lastByte =
    r.lastByteAt > revokedAt
      ? `last byte after ${seconds(r.lastByteAt)} s`
      : 'no byte after revocation';
  console.log(`${r.name.padEnd(10)} ${alive}; ${lastByte}; ${r.bytes} bytes in all`);
}
await scheduler?.stop();
client.kill('SIGKILL');
await core.stop();
server.closeAllConnections();
server.close();
rmSync(workDir, { recursive: true, force: true });
process.exit(0);
