// The portal's first and repeat visit on a slow phone link: the built control plane serving the
// built portal, Debian's Chromium (playwright-core, never a downloaded browser) throttled through
// CDP `Network.emulateNetworkConditions`, a phone viewport.
//
// Profiles (CDP's latency is added once per request, not per round trip, so a "RTT" here is the
// request latency DevTools and Lighthouse use):
// - fast 3G: Lighthouse's DevTools-throttling preset for "fast 3G" / mobileSlow4G (150 ms RTT,
//   1.6 Mbps down, 750 kbps up, with the DevTools factors): 562.5 ms request latency,
//   1,474.56 kbps down, 675 kbps up;
// - 400 kbps: 400 kbps down and up, 400 ms request latency.
//
// Per page (`/`, `/servers`) and profile: RUNS cold visits, each in a fresh browser context (empty
// cache), each followed by a repeat visit in the same context (a new tab, warm cache). Figures,
// median of the runs:
// - FCP: `performance.getEntriesByName('first-contentful-paint')`;
// - before FCP: bytes of the responses finished by FCP (CDP `Network.loadingFinished`
//   `encodedDataLength`, headers included, on CDP's clock, cut at the `firstContentfulPaint`
//   lifecycle event of the same clock);
// - app: when the page's own heading (`#main h1`) is in the document (the app has rendered the
//   route), and the bytes finished by then;
// - total: every response of the visit until the network is idle;
// - repeat: bytes of app code (the document, scripts, styles) and of everything on the repeat visit.
//
// Environment knobs: PORTAL_LOAD_RUNS (5; 1 is the smoke run, about 40 s), PORTAL_LOAD_PAGES
// (`/,/servers`), PORTAL_LOAD_PROFILES (`fast3g,400k`). Needs `npm run build`. Exit status 1 only
// on an error (a page that does not render); the targets live in docs/benchmarks.md.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { startControlPlane } from '../lib/control-plane.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.PORTAL_LOAD_RUNS ?? 5);
const PAGES = (process.env.PORTAL_LOAD_PAGES ?? '/,/servers').split(',');
const kbps = (value) => (value * 1000) / 8; // CDP wants bytes per second
const PROFILES = {
  fast3g: {
    label: 'fast 3G (Lighthouse/DevTools: 562.5 ms, 1,474.56/675 kbps)',
    conditions: {
      offline: false,
      latency: 562.5,
      downloadThroughput: kbps(1474.56),
      uploadThroughput: kbps(675),
    },
  },
  '400k': {
    label: '400 kbps, 400 ms',
    conditions: {
      offline: false,
      latency: 400,
      downloadThroughput: kbps(400),
      uploadThroughput: kbps(400),
    },
  },
};
const profileNames = (process.env.PORTAL_LOAD_PROFILES ?? 'fast3g,400k').split(',');
for (const name of profileNames) if (!PROFILES[name]) throw new Error(`No profile ${name}`);
const PHONE = { width: 390, height: 844 };

// Records, in the page, when the route's own heading first appears (the app has rendered it).
const APP_MARK = `(() => {
  const seen = () => document.querySelector('#main h1');
  const mark = () => { if (!window.__appAt && seen()) window.__appAt = performance.now(); };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true });
})();`;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const isAppCode = (response) =>
  ['Document', 'Script', 'Stylesheet'].includes(response.type) ||
  /\/assets\/.*\.(js|css)$/.test(response.url);

/** One visit of `url` in `context`: its network log (CDP's clock) and paint marks. */
async function visit(context, url, conditions) {
  const page = await context.newPage();
  await page.addInitScript(APP_MARK);
  const cdp = await context.newCDPSession(page);
  const requests = new Map();
  let fcpAt = null;
  let startedAt = null;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (startedAt === null && e.type === 'Document') startedAt = e.timestamp;
    requests.set(e.requestId, { url: e.request.url, type: e.type, cached: false });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = e.response.fromDiskCache || e.response.fromPrefetchCache || false;
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { bytes: e.encodedDataLength, finishedAt: e.timestamp });
  });
  cdp.on('Page.lifecycleEvent', (e) => {
    if (e.name === 'firstContentfulPaint' && fcpAt === null) fcpAt = e.timestamp;
  });
  await cdp.send('Network.enable');
  await cdp.send('Page.enable');
  await cdp.send('Page.setLifecycleEventsEnabled', { enabled: true });
  await cdp.send('Network.emulateNetworkConditions', conditions);
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForFunction(() => globalThis.__appAt !== undefined, null, { timeout: 120_000 });
  await page.waitForLoadState('networkidle', { timeout: 120_000 });
  // The paint entry can be queued a frame after the app's mark.
  await page.waitForFunction(
    () => performance.getEntriesByName('first-contentful-paint').length > 0,
    null,
    { timeout: 10_000 },
  );
  const marks = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    app: globalThis.__appAt,
  }));
  const finished = [...requests.values()].filter((r) => r.finishedAt !== undefined);
  // The lifecycle event and the network share CDP's clock; the navigation start is the
  // document's request, so the app mark (ms since the time origin) goes onto the same clock.
  const fcpCut = fcpAt ?? startedAt + marks.fcp / 1000;
  const appCut = startedAt + marks.app / 1000;
  const sum = (list) => list.reduce((total, r) => total + (r.bytes ?? 0), 0);
  const result = {
    fcp: marks.fcp,
    app: marks.app,
    beforeFcp: sum(finished.filter((r) => r.finishedAt <= fcpCut)),
    beforeApp: sum(finished.filter((r) => r.finishedAt <= appCut)),
    total: sum(finished),
    appCode: sum(finished.filter(isAppCode)),
    requests: finished.length,
    fromCache: finished.filter((r) => r.cached).length,
  };
  await page.close();
  return result;
}

async function main() {
  if (!existsSync(CHROMIUM_PATH)) {
    // A machine without a browser measures nothing here, as bench/purchase without v2ray.
    console.log(`not measured: Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`);
    return;
  }
  const cp = await startControlPlane();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    console.log(`Portal load at ${cp.base}, ${RUNS} run(s) per page and profile, phone viewport`);
    for (const profileName of profileNames) {
      const { label, conditions } = PROFILES[profileName];
      console.log(`\n${label}`);
      for (const path of PAGES) {
        const cold = [];
        const warm = [];
        for (let run = 0; run < RUNS; run += 1) {
          const context = await browser.newContext({ viewport: PHONE, isMobile: true });
          try {
            cold.push(await visit(context, cp.base + path, conditions));
            warm.push(await visit(context, cp.base + path, conditions));
          } finally {
            await context.close();
          }
        }
        const m = (list, key) => median(list.map((r) => r[key]));
        console.log(
          `  ${path.padEnd(9)} first visit: FCP ${s(m(cold, 'fcp'))}, ${kb(m(cold, 'beforeFcp'))} before FCP;` +
            ` app ${s(m(cold, 'app'))}, ${kb(m(cold, 'beforeApp'))} by then; total ${kb(m(cold, 'total'))}` +
            ` in ${m(cold, 'requests')} responses` +
            ` (runs: FCP ${cold.map((r) => s(r.fcp)).join(' ')})`,
        );
        console.log(
          `  ${''.padEnd(9)} repeat visit: app code ${kb(m(warm, 'appCode'))}, total ${kb(m(warm, 'total'))};` +
            ` FCP ${s(m(warm, 'fcp'))}, app ${s(m(warm, 'app'))};` +
            ` ${m(warm, 'fromCache')} of ${m(warm, 'requests')} responses from the cache`,
        );
      }
    }
  } finally {
    await browser.close();
    await cp.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
