// How fast the control plane answers the calls every portal page makes: the session check
// (token hash lookup joined to the account) and the health probe, at 50 concurrent clients,
// plus the cost of one argon2id login (by design tens of milliseconds).
//
// SESSIONS_REQUESTS (10000 per call; the warm-up is a tenth of it) overrides the default.
import { startControlPlane } from '../lib/control-plane.mjs';
import { load } from '../lib/load.mjs';

const REQUESTS = Number(process.env.SESSIONS_REQUESTS ?? 10_000);

const cp = await startControlPlane();
try {
  const email = `bench.${Date.now()}@example.com`;
  const post = (path, body) =>
    fetch(`${cp.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('/api/auth/generate-code', { email, userType: 'client' });
  const registered = await (
    await post('/api/auth/register', {
      email,
      password: 'bench password',
      userType: 'client',
      code: await cp.codeFor(email),
    })
  ).json();
  const auth = { authorization: `Bearer ${registered.token}` };

  await load({
    url: `${cp.base}/api/auth/verify-session`,
    headers: auth,
    total: Math.ceil(REQUESTS / 10),
  }); // warm-up
  const session = await load({
    url: `${cp.base}/api/auth/verify-session`,
    headers: auth,
    total: REQUESTS,
  });
  const health = await load({ url: `${cp.base}/healthz`, total: REQUESTS });

  const logins = [];
  for (let i = 0; i < 8; i += 1) {
    const started = performance.now();
    const res = await post('/api/auth/login', {
      email,
      password: 'bench password',
      userType: 'client',
    });
    if (!res.ok) throw new Error(`login failed: ${res.status}`);
    logins.push(performance.now() - started);
  }
  logins.sort((a, b) => a - b);

  console.log(
    'call                          concurrency  requests  failures     req/s   p50 ms   p99 ms',
  );
  for (const [name, r] of [
    ['GET /api/auth/verify-session', session],
    ['GET /healthz', health],
  ]) {
    console.log(
      `${name.padEnd(30)}${'50'.padStart(11)}${String(r.requests).padStart(10)}${String(r.failures).padStart(10)}${String(r.rps).padStart(10)}${r.p50.padStart(9)}${r.p99.padStart(9)}`,
    );
  }
  console.log(
    `POST /api/auth/login (argon2id, sequential): median ${logins[4].toFixed(1)} ms over ${logins.length}`,
  );
  console.log(
    `verify-session / healthz throughput ratio: ${(session.rps / health.rps).toFixed(2)}`,
  );
  // A failed call is a broken benchmark, not a slow one (bench/smoke.mjs relies on the status).
  if (session.failures > 0 || health.failures > 0) process.exitCode = 1;
} finally {
  await cp.stop();
}
