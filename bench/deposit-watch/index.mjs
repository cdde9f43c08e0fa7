// Watching deposit addresses (docs/deposits.md#watching-what-it-costs): the built
// control plane's watcher against devchain (the real runtime behind a real JSON-RPC server)
// with mainnet-like slots, DEPOSIT_WATCH_ACCOUNTS accounts holding a deposit address, and a
// steady stream of SOL and USDC transfers from the demo wallet to a few real (derived)
// addresses. Every watcher call goes through a counting relay: RPC calls per minute by method
// (batch requests counted per call inside), bytes received per minute, the watcher's time
// between a block's answer and its next call (parsing + its DB work for that block), and the
// credit latency (transfer sent -> credited in the ledger). Beside the measured calls: what
// per-address polling and getMultipleAccounts batches would cost for the same accounts.
//
// Environment knobs: DEPOSIT_WATCH_ACCOUNTS (1000), DEPOSIT_WATCH_SECONDS (60),
// DEPOSIT_WATCH_RATE (transfers per second, 2), DEPOSIT_WATCH_SLOT_MS (400),
// DEPOSIT_WATCH_PAYEES (real derived addresses paid, 5).
import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { freePort, startControlPlane } from '../lib/control-plane.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { Keypair } = require('@solana/web3.js');
const { startDevchain } = require('@scn/devchain');
const {
  depositAddress,
} = require('../../control-plane/dist/deposits/deposit-address-derivation.js');

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const ACCOUNTS = env('DEPOSIT_WATCH_ACCOUNTS', 1000);
const SECONDS = env('DEPOSIT_WATCH_SECONDS', 60);
const RATE = env('DEPOSIT_WATCH_RATE', 2);
const SLOT_MS = env('DEPOSIT_WATCH_SLOT_MS', 400);
const PAYEES = Math.min(env('DEPOSIT_WATCH_PAYEES', 5), ACCOUNTS);
const SEED = 'b7'.repeat(32);
const WATCH_TICK_S = 1;
/** Finality is 32 slots (13 s at 400 ms): every transfer credited well within this. */
const CREDIT_WAIT_S = 45;
/** Mainnet: about 2.5 blocks per second (400 ms slots, a few skipped). */
const MAINNET_BLOCKS_PER_S = 2.5;

// --- a counting relay in front of devchain --------------------------------------------------
const counts = new Map();
let bytesIn = 0;
let bytesOut = 0;
let counting = false;
/** Gaps between a getBlock answer and the watcher's next request (ms). */
const afterBlock = [];
let lastBlockAnswerAt = null;

function startRelay(target) {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    const gap = lastBlockAnswerAt === null ? null : performance.now() - lastBlockAnswerAt;
    lastBlockAnswerAt = null;
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let methods = [];
      try {
        const parsed = JSON.parse(body.toString('utf8'));
        methods = (Array.isArray(parsed) ? parsed : [parsed]).map((c) => c.method);
      } catch {
        methods = ['(unparsed)'];
      }
      // Within a tick, a block's answer is followed by the next getBlock or the statuses call:
      // the gap is what the watcher did with that block. Else the next tick's getBlocks follows.
      const sameTick = methods[0] === 'getBlock' || methods[0] === 'getSignatureStatuses';
      if (counting && gap !== null && sameTick) afterBlock.push(gap);
      if (counting) {
        bytesOut += body.length;
        for (const m of methods) counts.set(m, (counts.get(m) ?? 0) + 1);
      }
      const upstream = request(
        { hostname, port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (c) => {
            if (counting) bytesIn += c.length;
            res.write(c);
          });
          answer.on('end', () => {
            res.end();
            if (methods.length === 1 && methods[0] === 'getBlock') {
              lastBlockAnswerAt = performance.now();
            }
          });
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    );
  });
}

// --- the chain, the relay, the control plane ------------------------------------------------
const chain = await startDevchain({ slotMs: SLOT_MS });
const relay = await startRelay(chain.url);
const pgPort = await freePort();
const cp = await startControlPlane({
  EMBEDDED_PG_PORT: String(pgPort),
  SOLANA_RPC_URL: relay.url,
  SOLANA_DEPOSIT_ADDRESS: chain.depositAddress,
  // Production refuses 'localnet'; devnet changes only explorer links.
  SOLANA_CLUSTER: 'devnet',
  SOLANA_COMMITMENT: 'finalized',
  SOLANA_DEPOSIT_SEED: SEED,
  SOLANA_USDC_MINT: chain.testMints.USDC,
});
const db = new pg.Pool({
  connectionString:
    process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/scn`,
  max: 2,
});
db.on('error', (error) => console.error(`database client: ${error.message}`));

let failed = false;
try {
  // Accounts with an address: the first PAYEES derived from the seed as the control plane does
  // (paid below), the rest fresh random keys (never paid: they only make the table large).
  const seed = Buffer.from(SEED, 'hex');
  let started = performance.now();
  const payees = [];
  for (let from = 0; from < ACCOUNTS; from += 10_000) {
    const uuids = [];
    const indices = [];
    const addresses = [];
    for (let i = from; i < Math.min(from + 10_000, ACCOUNTS); i += 1) {
      const index = i + 1;
      const address =
        i < PAYEES ? depositAddress(seed, index) : Keypair.generate().publicKey.toBase58();
      if (i < PAYEES) payees.push(address);
      uuids.push(randomUUID());
      indices.push(index);
      addresses.push(address);
    }
    await db.query(
      `INSERT INTO accounts (uuid, email, user_type, password_hash, name)
       SELECT u, u::text || '@bench.example', 'client', 'x', 'bench' FROM unnest($1::uuid[]) AS u`,
      [uuids],
    );
    await db.query(
      `INSERT INTO deposit_addresses (owner_uuid, wallet_kind, derivation_index, address)
       SELECT u, 'client_wallet', i, a FROM unnest($1::uuid[], $2::int[], $3::text[]) AS t(u, i, a)`,
      [uuids, indices, addresses],
    );
  }
  await db.query(
    `SELECT setval(pg_get_serial_sequence('deposit_addresses', 'derivation_index'), $1)`,
    [ACCOUNTS],
  );
  console.log(
    `${ACCOUNTS} accounts with a deposit address (${PAYEES} derived and paid) in ${((performance.now() - started) / 1000).toFixed(1)} s; slots ${SLOT_MS} ms; ${SECONDS} s measured; 2 shared cores, other work running`,
  );

  // Let the watcher take its first look (lookback) before measuring.
  await new Promise((r) => setTimeout(r, 3000));

  // --- the measured window: transfers at RATE per second, alternating SOL and USDC ----------
  const sent = [];
  counting = true;
  started = performance.now();
  const startSlot = await rpc('getSlot', [{ commitment: 'confirmed' }]);
  const stopAt = started + SECONDS * 1000;
  // Credit latency: the ledger polled every 50 ms while sending and after, each transfer's time
  // from sent to seen credited (finality is ~32 slots).
  const open = new Map();
  let sending = true;
  let creditWaitUntil = Infinity;
  const poller = (async () => {
    while ((sending || open.size > 0) && performance.now() < creditWaitUntil) {
      if (open.size > 0) {
        const { rows } = await db.query(
          `SELECT signature, status FROM deposit_transfers WHERE signature = ANY($1)`,
          [[...open.keys()]],
        );
        const now = performance.now();
        for (const row of rows) {
          if (row.status === 'credited') {
            open.get(row.signature).creditedAt = now;
            open.delete(row.signature);
          } else if (row.status !== 'confirming') {
            throw new Error(`${row.signature}: ${row.status}, not credited`);
          }
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  let n = 0;
  while (performance.now() < stopAt) {
    const due = started + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const to = payees[n % payees.length];
    const usdc = n % 2 === 1;
    const url = usdc
      ? `solana:${to}?amount=2&spl-token=${chain.testMints.USDC}`
      : `solana:${to}?amount=0.05`;
    const at = performance.now();
    const paid = await fetch(`${chain.demoWalletUrl}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    if (!paid.ok) throw new Error(`demo wallet: ${paid.status} ${await paid.text()}`);
    const { signature } = await paid.json();
    const transfer = { signature, at, currency: usdc ? 'USDC' : 'SOL', creditedAt: null };
    sent.push(transfer);
    open.set(signature, transfer);
    n += 1;
  }
  const measuredS = (performance.now() - started) / 1000;
  const endSlot = await rpc('getSlot', [{ commitment: 'confirmed' }]);
  counting = false;
  const callsSnapshot = new Map(counts);
  const inSnapshot = bytesIn;
  sending = false;
  creditWaitUntil = performance.now() + CREDIT_WAIT_S * 1000;
  await poller;
  const outSnapshot = bytesOut;

  if (open.size > 0) {
    failed = true;
    console.log(
      `FAIL: ${open.size} of ${sent.length} transfers not credited within ${CREDIT_WAIT_S} s`,
    );
  }

  // --- figures ----------------------------------------------------------------------------
  const perMin = (x) => (x * 60) / measuredS;
  const total = [...callsSnapshot.values()].reduce((a, b) => a + b, 0);
  const blocks = callsSnapshot.get('getBlock') ?? 0;
  const slotsPassed = endSlot - startSlot;
  console.log(`\nWatcher RPC calls (measured, ${measuredS.toFixed(0)} s, ${slotsPassed} slots):`);
  for (const [method, count] of [...callsSnapshot].sort((a, b) => b[1] - a[1]))
    console.log(
      `  ${method.padEnd(22)} ${String(count).padStart(6)}  ${perMin(count).toFixed(0).padStart(6)}/min`,
    );
  console.log(
    `  ${'all'.padEnd(22)} ${String(total).padStart(6)}  ${perMin(total).toFixed(0).padStart(6)}/min`,
  );
  console.log(
    `  received ${(perMin(inSnapshot) / 1e6).toFixed(2)} MB/min (${(inSnapshot / Math.max(1, blocks) / 1e3).toFixed(1)} kB per getBlock answer, devchain's blocks hold only this bench's transfers); sent ${(perMin(outSnapshot) / 1e3).toFixed(0)} kB/min`,
  );
  const sortedGaps = [...afterBlock].sort((a, b) => a - b);
  const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN);
  console.log(
    `  per block, from its answer to the next call (parse + DB lookup of its accounts): p50 ${pct(sortedGaps, 0.5).toFixed(1)} ms, p99 ${pct(sortedGaps, 0.99).toFixed(1)} ms (${sortedGaps.length} blocks)`,
  );
  const otherPerMin = perMin(total - blocks);
  console.log(
    `  projected for mainnet (${MAINNET_BLOCKS_PER_S} blocks/s): ${(MAINNET_BLOCKS_PER_S * 60 + otherPerMin).toFixed(0)}/min (getBlock ${MAINNET_BLOCKS_PER_S * 60}/min + the rest as measured), whatever the number of accounts`,
  );
  const ticksPerMin = 60 / WATCH_TICK_S;
  console.log(`\nFor comparison, the same ${ACCOUNTS} accounts (arithmetic, not measured):`);
  console.log(
    `  getSignaturesForAddress per address per tick: ${(ACCOUNTS * 3 * ticksPerMin).toLocaleString('en-US')}/min (3 addresses per account: SOL + 2 ATAs; ${(ACCOUNTS * ticksPerMin).toLocaleString('en-US')}/min for the SOL address alone)`,
  );
  console.log(
    `  getMultipleAccounts, 100 keys per call: ${(Math.ceil((ACCOUNTS * 3) / 100) * ticksPerMin).toLocaleString('en-US')}/min (3 keys per account), then a history call per changed balance`,
  );
  console.log(`  measured (blocks): ${perMin(total).toFixed(0)}/min`);

  const latencies = sent.filter((s) => s.creditedAt !== null).map((s) => s.creditedAt - s.at);
  for (const currency of ['SOL', 'USDC']) {
    const xs = sent
      .filter((s) => s.currency === currency && s.creditedAt !== null)
      .map((s) => (s.creditedAt - s.at) / 1000)
      .sort((a, b) => a - b);
    console.log(
      `Credit latency ${currency} (sent -> credited, finalized = 32 slots): ${xs.length} transfers, p50 ${pct(xs, 0.5).toFixed(1)} s, p99 ${pct(xs, 0.99).toFixed(1)} s, max ${xs.at(-1)?.toFixed(1)} s`,
    );
  }
  if (latencies.length === 0) {
    failed = true;
    console.log('FAIL: no transfer credited');
  }
} finally {
  await db.end();
  await cp.stop();
  relay.close();
  await chain.stop();
}
process.exit(failed ? 1 : 0);

/** One JSON-RPC call of the bench itself, straight to devchain (not counted). */
async function rpc(method, params) {
  const answer = await fetch(chain.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const { result, error } = await answer.json();
  if (error) throw new Error(`${method}: ${error.message}`);
  return result;
}
