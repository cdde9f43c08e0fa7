// GeoIP (control-plane/src/geoip): what loading the packaged ip-location-db database costs at
// start (wall time, the longest the event loop was held, memory) and what one lookup costs.
// Each round loads in a fresh process (`node --expose-gc`), so the figures are a cold start's.
// Memory is heap used + arrayBuffers after a full GC, minus the same before the load: what the
// process keeps for the database (typed arrays, the ASN name table).
//
// Environment knobs: GEOIP_ROUNDS (3 loads), GEOIP_LOOKUPS (1,000,000 per round).
// Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const ROUNDS = env('GEOIP_ROUNDS', 3);
const LOOKUPS = env('GEOIP_LOOKUPS', 1_000_000);

if (process.argv[2] === 'round') {
  const require = createRequire(import.meta.url);
  const { GeoIpService } = require('../../control-plane/dist/geoip/geoip.service.js');
  const { loadConfig } = require('../../control-plane/dist/config/app-config.js');
  const memory = () => {
    global.gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = memory();
  const geoip = new GeoIpService(
    loadConfig({
      DATA_DIR: '/tmp/scn-bench-geoip',
      APP_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'silent',
    }),
  );
  // The event loop's longest wait while loading: what a request arriving then would feel.
  let longestStallMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longestStallMs = Math.max(longestStallMs, now - last - 1);
    last = now;
  }, 1);
  const started = performance.now();
  geoip.onModuleInit();
  await geoip.whenReady();
  const loadMs = performance.now() - started;
  clearInterval(ticker);
  const bytes = memory() - before;
  // Lookups: random public IPv4 (most of them placed) and IPv6 under 2000::/4.
  const addresses = Array.from({ length: 4096 }, (_, i) =>
    i % 4 === 3
      ? `2${(0x100 + ((Math.random() * 0xeff) | 0)).toString(16)}:${((Math.random() * 0xffff) | 0).toString(16)}::1`
      : `${1 + ((Math.random() * 222) | 0)}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}`,
  );
  let placed = 0;
  const lookupStart = performance.now();
  for (let i = 0; i < LOOKUPS; i++) if (geoip.lookup(addresses[i & 4095]).asn !== null) placed++;
  const lookupNs = ((performance.now() - lookupStart) * 1e6) / LOOKUPS;
  console.log(
    JSON.stringify({ loadMs, longestStallMs, bytes, lookupNs, placed: placed / LOOKUPS }),
  );
  process.exit(0);
}

const here = fileURLToPath(import.meta.url);
const rounds = [];
for (let i = 0; i < ROUNDS; i++) {
  const result = spawnSync(process.execPath, ['--expose-gc', here, 'round'], { encoding: 'utf8' });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    process.exit(1);
  }
  const line = result.stdout.trim().split('\n').pop();
  rounds.push(JSON.parse(line));
}
const median = (key) => {
  const sorted = rounds.map((r) => r[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
console.log(`GeoIP, packaged database, ${ROUNDS} cold loads (median), ${LOOKUPS} lookups each`);
console.log(`  load (4 files, background):   ${median('loadMs').toFixed(0)} ms`);
console.log(`  longest event-loop stall:     ${median('longestStallMs').toFixed(1)} ms`);
console.log(`  memory kept (heap + buffers): ${(median('bytes') / 1048576).toFixed(1)} MiB`);
console.log(`  one lookup:                   ${median('lookupNs').toFixed(0)} ns`);
console.log(`  random addresses with an ASN: ${(median('placed') * 100).toFixed(0)}%`);
