// Purchases: many client accounts with real ledger deposits buy subscriptions to
// many operators' servers through POST /api/clients/create-subscription, closed loop at
// PURCHASE_CONCURRENCY; prints purchases/s and latency, then checks the ledger invariants and
// the node client sets after the run. Then the time from purchase to the first byte through a
// node: one real agent (AgentDaemon) driving a real v2ray, and a v2ray client configured only
// from the returned connection string.
//
// Environment knobs: PURCHASES (5000), PURCHASE_CLIENTS (250), PURCHASE_SERVERS (500),
// PURCHASE_OPERATORS (50), PURCHASE_CONCURRENCY (50), PURCHASE_WARMUP (300), FIRST_BYTE_RUNS (10);
// PURCHASE_PROFILE=1 adds a V8 CPU profile of the control plane over the measured window.
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { env, fmt, percentile, sleep } from '../lib/common.mjs';
import { freePort, startControlPlane } from '../lib/control-plane.mjs';
import { summariseCpuProfile } from '../lib/cpuprofile.mjs';
import { cpuMs, postgresPids } from '../lib/proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pg = require('pg');
const { parseVlessLink } = require('@scn/proto');

const PURCHASES = env('PURCHASES', 5000);
const CLIENTS = env('PURCHASE_CLIENTS', 250);
const SERVERS = env('PURCHASE_SERVERS', 500);
const OPERATORS = env('PURCHASE_OPERATORS', 50);
const CONCURRENCY = env('PURCHASE_CONCURRENCY', 50);
const FIRST_BYTE_RUNS = env('FIRST_BYTE_RUNS', 10);
const WARMUP = env('PURCHASE_WARMUP', 300);
const SSL = 1_000_000n;
const V2RAY = '/usr/bin/v2ray';
const TARGET = { purchasesPerSecond: 500, violations: 0, firstByteMs: 2000 };

/** Server counts of the purchases: mostly one server, some two or three (1.4 on average). */
function serverCountFor(i) {
  const r = i % 10;
  return r < 7 ? 1 : r < 9 ? 2 : 3;
}

// ---------------------------------------------------------------------------------------------
// Fixtures, written straight to the database (the bench measures purchases, not sign-ups).

async function insertAccounts(db, count, userType) {
  const accounts = Array.from({ length: count }, () => ({
    uuid: randomUUID(),
    token: randomBytes(32).toString('base64url'),
  }));
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name)
     SELECT u, u::text || '@bench.example', $2, 'x', 'bench' FROM unnest($1::uuid[]) AS u`,
    [accounts.map((a) => a.uuid), userType],
  );
  await db.query(
    `INSERT INTO sessions (id, token_hash, account_uuid, expires_at)
     SELECT gen_random_uuid(), h, u, now() + interval '1 day' FROM unnest($1::text[], $2::uuid[]) AS t(h, u)`,
    [
      accounts.map((a) => createHash('sha256').update(a.token).digest('hex')),
      accounts.map((a) => a.uuid),
    ],
  );
  return accounts;
}

/** Real ledger deposits (external -> client wallet), one transaction each, as test_deposit. */
async function deposit(db, ownerUuids, microEach) {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES (gen_random_uuid(), 'external', '00000000-0000-0000-0000-000000000000')
       ON CONFLICT (kind, owner_uuid) DO NOTHING`,
    );
    await client.query(
      `INSERT INTO ledger_accounts (id, kind, owner_uuid)
       SELECT gen_random_uuid(), 'client_wallet', u FROM unnest($1::uuid[]) AS u
       ON CONFLICT (kind, owner_uuid) DO NOTHING`,
      [ownerUuids],
    );
    await client.query(
      `WITH external AS (SELECT id FROM ledger_accounts WHERE kind = 'external'),
       wallets AS (
         SELECT a.id AS wallet, gen_random_uuid() AS tx, a.owner_uuid
         FROM ledger_accounts a WHERE a.kind = 'client_wallet' AND a.owner_uuid = ANY($1::uuid[])
       ),
       txs AS (
         INSERT INTO ledger_transactions (id, type, initiator_uuid, description)
         SELECT tx, 'test_deposit', owner_uuid, 'Bench deposit' FROM wallets RETURNING id
       )
       INSERT INTO ledger_entries (transaction_id, account_id, amount_micro)
       SELECT w.tx, e.id, -$2::bigint FROM wallets w, external e
       UNION ALL SELECT w.tx, w.wallet, $2::bigint FROM wallets w`,
      [ownerUuids, microEach.toString()],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function insertServers(db, operators, count) {
  const ids = Array.from({ length: count }, () => randomUUID());
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, country, host, port, inbound,
                          reliability_at_report, last_report_at, core_state)
     SELECT id, owner, 'Bench node ' || n, 'agent', 'tier4', 'DE', 'node' || n || '.bench.example',
            10000 + n::int, '{"security":"none","network":"tcp"}', 100, now(), 'running'
     FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS t(id, owner, n)`,
    [ids, ids.map((_, i) => operators[i % operators.length].uuid)],
  );
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Load

async function runPurchases(base, clients, servers, total, concurrency) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(base);
  const latencies = [];
  const statuses = new Map();
  let next = 0;
  const once = (i) =>
    new Promise((resolve) => {
      const client = clients[i % clients.length];
      const count = serverCountFor(i);
      const start = (i * 7919) % servers.length;
      const serverIds = Array.from(
        { length: count },
        (_, k) => servers[(start + k * 13) % servers.length],
      );
      const payload = JSON.stringify({ uuid: client.uuid, serverIds });
      const started = process.hrtime.bigint();
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: '/api/clients/create-subscription',
          method: 'POST',
          headers: {
            authorization: `Bearer ${client.token}`,
            'content-type': 'application/json',
            'idempotency-key': `bench-${i}-${client.uuid}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            resolve();
          });
        },
      );
      req.on('error', () => {
        statuses.set('error', (statuses.get('error') ?? 0) + 1);
        resolve();
      });
      req.end(payload);
    });
  const worker = async () => {
    while (next < total) {
      const i = next;
      next += 1;
      await once(i);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    seconds,
    rate: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses: Object.fromEntries(statuses),
  };
}

// ---------------------------------------------------------------------------------------------
// Invariants after the run

async function check(db, clients, expectedServerSlots) {
  const problems = [];
  const rows = async (sql, params) => (await db.query(sql, params)).rows;
  for (const r of await rows(
    `SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_micro) <> 0`,
  ))
    problems.push(`unbalanced transaction ${r.transaction_id}`);
  for (const r of await rows(
    `SELECT a.id FROM ledger_accounts a
     LEFT JOIN (SELECT account_id, sum(amount_micro) AS total FROM ledger_entries GROUP BY account_id) s ON s.account_id = a.id
     WHERE a.kind IN ('client_wallet', 'node_wallet') AND a.balance_micro <> COALESCE(s.total, 0)`,
  ))
    problems.push(`balance of ${r.id} differs from its entries`);
  for (const r of await rows(
    `SELECT id FROM ledger_accounts WHERE kind IN ('client_wallet', 'node_wallet') AND balance_micro < 0`,
  ))
    problems.push(`negative wallet ${r.id}`);
  const [total] = await rows(
    `SELECT COALESCE(sum(amount_micro), 0)::text AS t FROM ledger_entries`,
  );
  if (total.t !== '0') problems.push(`the ledger sums to ${total.t}`);

  // Every client spent exactly what its subscriptions cost, and the operators got all of it.
  const [spent] = await rows(
    `SELECT COALESCE(sum(balance_micro), 0)::text AS left FROM ledger_accounts WHERE kind = 'client_wallet' AND owner_uuid = ANY($1::uuid[])`,
    [clients.map((c) => c.uuid)],
  );
  if (spent.left !== '0') problems.push(`clients have ${spent.left} micro-SSL left (expected 0)`);
  const [slots] = await rows(
    `SELECT count(*)::int AS n FROM subscription_servers ss JOIN subscriptions s ON s.id = ss.subscription_id WHERE s.status = 'active'`,
  );
  const [allowed] = await rows(`SELECT count(*)::int AS n FROM server_clients`);
  const [earned] = await rows(
    `SELECT COALESCE(sum(balance_micro), 0)::text AS t FROM ledger_accounts WHERE kind = 'node_wallet'`,
  );
  if (slots.n !== expectedServerSlots)
    problems.push(`${slots.n} subscription slots, expected ${expectedServerSlots}`);
  if (allowed.n !== slots.n)
    problems.push(`${allowed.n} client uuids on nodes for ${slots.n} slots`);
  if (BigInt(earned.t) !== BigInt(expectedServerSlots) * 10n * SSL)
    problems.push(
      `operators earned ${earned.t}, expected ${BigInt(expectedServerSlots) * 10n * SSL}`,
    );
  for (const r of await rows(
    `SELECT server_id, count(*)::int AS n FROM server_clients GROUP BY server_id HAVING count(*) > 140`,
  ))
    problems.push(`server ${r.server_id} has ${r.n} clients (tier4 allows 140)`);
  return { problems, slots: slots.n, allowed: allowed.n, earnedMicro: earned.t };
}

// ---------------------------------------------------------------------------------------------
// Purchase to first byte through a real node

function socksGet(socksPort, targetPort, timeoutMs) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socksPort, '127.0.0.1');
    let phase = 'greeting';
    let buffer = Buffer.alloc(0);
    const fail = (reason) => {
      socket.destroy();
      reject(new Error(reason));
    };
    socket.setTimeout(timeoutMs, () => fail(`timeout in ${phase}`));
    socket.on('error', (e) => fail(e.message));
    socket.on('close', () => fail(`closed in ${phase}`));
    socket.on('connect', () => socket.write(Buffer.from([5, 1, 0])));
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (phase === 'greeting' && buffer.length >= 2) {
        if (buffer[1] !== 0) return fail('greeting refused');
        buffer = buffer.subarray(2);
        phase = 'connect';
        const port = Buffer.alloc(2);
        port.writeUInt16BE(targetPort);
        socket.write(Buffer.concat([Buffer.from([5, 1, 0, 1, 127, 0, 0, 1]), port]));
      }
      if (phase === 'connect' && buffer.length >= 10) {
        if (buffer[1] !== 0) return fail('connect refused');
        buffer = buffer.subarray(10);
        phase = 'http';
        socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      }
      // The first byte of the page's answer came back through the tunnel.
      if (phase === 'http' && buffer.length > 0) {
        socket.destroy();
        resolve(buffer.toString('latin1', 0, 12));
      }
    });
  });
}

/**
 * What a client app does with a pinned link (`pcs`: SHA-256 of the node's self-signed leaf, the
 * links of docs/api.md): it checks the certificate the node presents against the pin and then
 * trusts exactly that certificate. v2ray 4.34 has no pinnedPeerCertificateChainSha256, so the
 * checked certificate becomes its only authority (`usage: "verify"`), as
 * node-agent/test/e2e/vless-link-client.ts does; a mismatch refuses, as a pinning app would.
 */
async function pinnedTlsSettings(parsed) {
  const serverName = parsed.params.sni;
  const pin = parsed.params.pcs?.replace(/:/g, '').toLowerCase();
  if (!pin) return { serverName };
  const presented = await new Promise((resolve, reject) => {
    const socket = tls.connect(
      {
        host: parsed.host,
        port: parsed.port,
        // An IP is sent as no server name at all (RFC 6066), as Go clients do.
        ...(serverName && net.isIP(serverName) === 0 ? { servername: serverName } : {}),
        rejectUnauthorized: false,
      },
      () => {
        const certificate = socket.getPeerX509Certificate();
        socket.destroy();
        if (certificate) resolve(certificate);
        else reject(new Error(`${parsed.host}:${parsed.port} presented no certificate`));
      },
    );
    socket.once('error', reject);
  });
  const presentedPin = createHash('sha256').update(presented.raw).digest('hex');
  if (presentedPin !== pin)
    throw new Error(`pin mismatch: ${parsed.host}:${parsed.port} presented ${presentedPin}`);
  return {
    serverName,
    certificates: [{ usage: 'verify', certificate: presented.toString().trim().split('\n') }],
  };
}

/** The v2ray client config an app builds from the served link alone (none or tls; tcp, ws, grpc). */
async function v2rayClientConfig(link, socksPort) {
  const parsed = parseVlessLink(link);
  if (!parsed) throw new Error(`not a VLESS link: ${link}`);
  const security = parsed.params.security ?? 'none';
  if (security !== 'none' && security !== 'tls')
    throw new Error(`v2ray 4.34 cannot dial security=${security}`);
  const network = parsed.params.type ?? 'tcp';
  return {
    log: { loglevel: 'warning', access: 'none' },
    inbounds: [
      { listen: '127.0.0.1', port: socksPort, protocol: 'socks', settings: { auth: 'noauth' } },
    ],
    outbounds: [
      {
        protocol: 'vless',
        settings: {
          vnext: [
            {
              address: parsed.host,
              port: parsed.port,
              users: [
                {
                  id: parsed.uuid,
                  encryption: parsed.params.encryption ?? 'none',
                  ...(parsed.params.flow ? { flow: parsed.params.flow } : {}),
                  level: 0,
                },
              ],
            },
          ],
        },
        streamSettings: {
          network,
          security,
          ...(security === 'tls' ? { tlsSettings: await pinnedTlsSettings(parsed) } : {}),
          ...(network === 'ws' ? { wsSettings: { path: parsed.params.path ?? '/' } } : {}),
          ...(network === 'grpc'
            ? { grpcSettings: { serviceName: parsed.params.serviceName ?? '' } }
            : {}),
        },
      },
    ],
  };
}

async function firstByte(cp, grpcPort, db) {
  if (FIRST_BYTE_RUNS < 1) return { skipped: 'FIRST_BYTE_RUNS=0' };
  if (!existsSync(V2RAY)) return { skipped: `${V2RAY} is missing` };
  const agentDist = join(here, '..', '..', 'node-agent', 'dist', 'src');
  const { enroll } = require(join(agentDist, 'commands', 'enroll.js'));
  const { AgentDaemon, proxyCoreOptions } = require(join(agentDist, 'commands', 'run.js'));
  const { AgentConfigStore, readAgentConfig } = require(
    join(agentDist, 'config', 'agent-config.js'),
  );
  const { XrayCore } = require(join(agentDist, 'proxy-core', 'xray-core.js'));
  const { readHardware } = require(join(agentDist, 'system', 'hardware.js'));

  const dir = mkdtempSync(join(tmpdir(), 'scn-bench-purchase-'));
  const page = await new Promise((resolve) => {
    const server = net.createServer((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok'),
      );
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
  const [operator] = await insertAccounts(db, 1, 'node');
  const tokenRes = await fetch(`${cp.base}/api/nodes/enrollment-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operator.token}` },
    body: JSON.stringify({ tier: 'tier1' }),
  });
  if (!tokenRes.ok)
    throw new Error(`enrollment token: ${tokenRes.status} ${await tokenRes.text()}`);
  const configPath = join(dir, 'agent', 'config.json');
  const io = { out: () => undefined, err: () => undefined };
  await enroll(
    {
      server: `127.0.0.1:${grpcPort}`,
      token: (await tokenRes.json()).token,
      tier: 'tier1',
      publicHost: '127.0.0.1',
      publicPort: String(await freePort()),
      core: 'v2ray',
      coreBinary: V2RAY,
      coreApiPort: String(await freePort()),
      coreWorkDir: join(dir, 'core'),
      config: configPath,
    },
    { io },
  );
  const config = await readAgentConfig(configPath);
  // The page is on 127.0.0.1, which a node refuses by default.
  const core = new XrayCore(
    { ...proxyCoreOptions(config), allowPrivateDestinations: true },
    { stopTimeoutMs: 2000 },
  );
  const daemon = new AgentDaemon(new AgentConfigStore(configPath, config), core, io, readHardware);
  await daemon.start();
  const children = [];
  const results = [];
  let served = '';
  try {
    for (let deadline = Date.now() + 15_000; !daemon.store.current.lastReport; await sleep(50))
      if (Date.now() > deadline) throw new Error('the agent sent no report');
    const buyers = await insertAccounts(db, FIRST_BYTE_RUNS, 'client');
    await deposit(
      db,
      buyers.map((b) => b.uuid),
      10n * SSL,
    );
    for (const buyer of buyers) {
      const socksPort = await freePort();
      const sentAt = performance.now();
      const res = await fetch(`${cp.base}/api/clients/create-subscription`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
        body: JSON.stringify({ uuid: buyer.uuid, serverIds: [config.nodeId] }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(`purchase: ${res.status} ${JSON.stringify(body)}`);
      const answeredAt = performance.now();
      const { params } = parseVlessLink(body.vlessString) ?? { params: {} };
      served = `${params.security ?? 'none'} over ${params.type ?? 'tcp'}${params.pcs ? ', pinned certificate' : ''}`;
      const file = join(dir, `client-${socksPort}.json`);
      writeFileSync(file, JSON.stringify(await v2rayClientConfig(body.vlessString, socksPort)));
      const child = spawn(V2RAY, ['-config', file], { stdio: 'ignore' });
      children.push(child);
      for (;;) {
        try {
          await socksGet(socksPort, page.address().port, 1000);
          break;
        } catch {
          if (performance.now() - sentAt > 10_000)
            throw new Error('no byte through the node within 10 s');
          await sleep(10);
        }
      }
      const done = performance.now();
      results.push({
        total: done - sentAt,
        purchase: answeredAt - sentAt,
        afterAnswer: done - answeredAt,
      });
      child.kill('SIGKILL');
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await daemon.stop();
    page.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (key) =>
    percentile(
      results.map((r) => r[key]).sort((a, b) => a - b),
      50,
    );
  return {
    runs: results.length,
    served,
    medianMs: median('total'),
    maxMs: Math.max(...results.map((r) => r.total)),
    purchaseMs: median('purchase'),
    afterAnswerMs: median('afterAnswer'),
  };
}

// ---------------------------------------------------------------------------------------------

const grpcPort = await freePort();
const pgPort = await freePort();
const profileDir = process.env.PURCHASE_PROFILE
  ? mkdtempSync(join(tmpdir(), 'scn-bench-prof-'))
  : null;
const cp = await startControlPlane(
  {
    GRPC_PORT: String(grpcPort),
    EMBEDDED_PG_PORT: String(pgPort),
    // Paid purchases: the launch period is over for this control plane.
    LAUNCH_PERIOD_ENDS: '2020-01-01',
  },
  { nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] },
);
let profileWindow = null;
const db = new pg.Pool({
  connectionString:
    process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/scn`,
  max: 4,
});
// An idle client's error (its server going away) is not the run's failure: say it, and let the
// next query fail if it matters. Unhandled, it ends the process with a dump of the client.
db.on('error', (error) => console.error(`database client: ${error.message}`));
let failed = false;
try {
  const operators = await insertAccounts(db, OPERATORS, 'node');
  const servers = await insertServers(db, operators, SERVERS);
  const clients = await insertAccounts(db, CLIENTS, 'client');
  const warmupClients = await insertAccounts(db, Math.min(50, WARMUP), 'client');
  // Each client can pay exactly its share of purchases, so every one must succeed and every
  // wallet must end at 0.
  const slotsPerClient = (list, total) => {
    const slots = new Map(list.map((c) => [c.uuid, 0]));
    for (let i = 0; i < total; i += 1) {
      const uuid = list[i % list.length].uuid;
      slots.set(uuid, slots.get(uuid) + serverCountFor(i));
    }
    return slots;
  };
  const depositExactly = async (list, total) => {
    const byAmount = new Map();
    for (const [uuid, slots] of slotsPerClient(list, total)) {
      const amount = BigInt(slots) * 10n * SSL;
      byAmount.set(amount, [...(byAmount.get(amount) ?? []), uuid]);
    }
    for (const [amount, uuids] of byAmount) await deposit(db, uuids, amount);
  };
  await depositExactly(clients, PURCHASES);
  await depositExactly(warmupClients, WARMUP);
  console.log(
    `fixtures: ${fmt(CLIENTS)} clients with deposits, ${fmt(SERVERS)} tier4 servers of ${fmt(OPERATORS)} operators; ` +
      `purchases of 1-3 servers (1.4 on average), concurrency ${CONCURRENCY}`,
  );

  const warm = await runPurchases(cp.base, warmupClients, servers, WARMUP, CONCURRENCY);
  if (warm.statuses[200] !== WARMUP) throw new Error(`warm-up: ${JSON.stringify(warm.statuses)}`);

  const pgCpuAtStart = new Map(postgresPids(cp.pid).map((pid) => [pid, cpuMs(pid)]));
  const nodeCpu0 = cpuMs(cp.pid);
  const from = Date.now();
  const run = await runPurchases(cp.base, clients, servers, PURCHASES, CONCURRENCY);
  profileWindow = { from, to: Date.now() };
  const nodeCpu = cpuMs(cp.pid) - nodeCpu0;
  // Backends the pool opened during the run count from 0 (a faster warm-up may have needed
  // fewer); one that has gone meanwhile counts nothing.
  const pgPids = new Set([...pgCpuAtStart.keys(), ...postgresPids(cp.pid)]);
  const pgCpu = [...pgPids].reduce((sum, pid) => {
    const now = cpuMs(pid);
    return now === 0 ? sum : sum + now - (pgCpuAtStart.get(pid) ?? 0);
  }, 0);
  const cpu = nodeCpu + pgCpu;
  let expectedSlots = 0;
  for (let i = 0; i < WARMUP; i += 1) expectedSlots += serverCountFor(i);
  for (let i = 0; i < PURCHASES; i += 1) expectedSlots += serverCountFor(i);
  const checked = await check(db, [...clients, ...warmupClients], expectedSlots);
  const first = await firstByte(cp, grpcPort, db);

  console.log('');
  console.log('purchases  concurrency  purchases/s   p50 ms   p99 ms  statuses');
  console.log(
    `${fmt(PURCHASES).padStart(9)}${String(CONCURRENCY).padStart(13)}${fmt(run.rate).padStart(13)}` +
      `${run.p50.toFixed(1).padStart(9)}${run.p99.toFixed(1).padStart(9)}  ${JSON.stringify(run.statuses)}`,
  );
  console.log(
    `CPU per purchase: control plane ${fmt(nodeCpu / PURCHASES, 2)} ms + PostgreSQL ${fmt(pgCpu / PURCHASES, 2)} ms ` +
      `(${fmt(cpu / 1000 / run.seconds, 2)} cores busy)`,
  );
  console.log(
    `ledger after the run: ${fmt(checked.slots)} paid server slots, ${fmt(checked.allowed)} client uuids on nodes, ` +
      `operators credited ${fmt(Number(BigInt(checked.earnedMicro) / SSL))} SSL; violations: ${checked.problems.length}`,
  );
  for (const problem of checked.problems.slice(0, 20)) console.log(`  violation: ${problem}`);
  if (first.skipped) console.log(`first byte: skipped (${first.skipped})`);
  else
    console.log(
      `purchase to first byte through a real node (agent + v2ray 4.34, ${first.served}, ${first.runs} runs): median ${fmt(first.medianMs, 0)} ms, ` +
        `max ${fmt(first.maxMs, 0)} ms (purchase answered in ${fmt(first.purchaseMs, 0)} ms, client start and tunnel ${fmt(first.afterAnswerMs, 0)} ms)`,
    );

  const ok = {
    rate: run.rate >= TARGET.purchasesPerSecond,
    violations: checked.problems.length === TARGET.violations && run.statuses[200] === PURCHASES,
    firstByte: first.skipped ? null : first.maxMs < TARGET.firstByteMs,
  };
  console.log(
    `targets: >= ${TARGET.purchasesPerSecond} purchases/s ${ok.rate ? 'met' : 'MISSED'}; ` +
      `zero violations and every purchase paid ${ok.violations ? 'met' : 'MISSED'}; ` +
      `first byte under ${TARGET.firstByteMs} ms ${ok.firstByte === null ? 'not measured' : ok.firstByte ? 'met' : 'MISSED'}`,
  );
  failed = !ok.violations;
} finally {
  await db.end();
  await cp.stop();
}
if (profileDir && profileWindow) {
  const endedAt = Date.now();
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (file) {
    const summary = summariseCpuProfile(join(profileDir, file), {
      only: { ...profileWindow, endedAt },
    });
    console.log(`\ncontrol plane CPU profile (${join(profileDir, file)}); self time by area:`);
    for (const a of summary.areas)
      console.log(`  ${(a.share * 100).toFixed(1).padStart(5)}%  ${a.name}`);
    console.log('hottest functions (self time):');
    for (const f of summary.functions)
      console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}`);
  }
}
process.exit(failed ? 1 : 0);
