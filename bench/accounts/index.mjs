// Account enumeration by timing: does an auth call answer an e-mail that has an
// account measurably differently from one that has none? For each call the two kinds of request
// are sent interleaved in random order, one at a time, against the built control plane; the
// latency distributions are compared with a two-sample Kolmogorov-Smirnov test. Each request
// comes from its own X-Forwarded-For address (trusted from loopback) so the per-address limits
// stay out of the way, and the e-mails are spread so no per-e-mail limit is reached.
import { startControlPlane } from '../lib/control-plane.mjs';

// ACCOUNTS_SCALE (1) scales the accounts and every sample count alike (0.05 for a smoke run), so
// each e-mail's uses, and with them the per-e-mail limits below, stay as they are.
const SCALE = Number(process.env.ACCOUNTS_SCALE ?? 1);
const scaled = (n) => Math.max(1, Math.round(n * SCALE));
const ACCOUNTS = scaled(60);
// Each e-mail of either kind is used the same number of times in each phase (i % ACCOUNTS), so
// both kinds have the same history (an upsert that replaces a code costs more than a first
// insert). generate-code: 9 per e-mail (+1 at registration = the limit of 10 an hour);
// reset-password: 5 per e-mail, the attempts one code allows.
const SAMPLES = {
  'generate-code': ACCOUNTS * 9,
  login: ACCOUNTS * 3,
  'forgot-password': ACCOUNTS * 4,
  'reset-password': ACCOUNTS * 5,
};

const cp = await startControlPlane();
let addressCounter = 0;
/** A fresh benchmark-range address per request (198.18.0.0/15): only a header, never a packet. */
const nextAddress = () => {
  addressCounter += 1;
  return `198.18.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};
const post = async (path, body) => {
  const started = process.hrtime.bigint();
  const res = await fetch(`${cp.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, ms: Number(process.hrtime.bigint() - started) / 1e6 };
};

function shuffle(items) {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Two-sample Kolmogorov-Smirnov: D, and its asymptotic p-value. */
function ks(a, b) {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i], y[j]);
    while (i < x.length && x[i] <= v) i += 1;
    while (j < y.length && y[j] <= v) j += 1;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  const ne = (x.length * y.length) / (x.length + y.length);
  const lambda = (Math.sqrt(ne) + 0.12 + 0.11 / Math.sqrt(ne)) * d;
  let p = 0;
  for (let k = 1; k <= 100; k += 1)
    p += 2 * (-1) ** (k - 1) * Math.exp(-2 * k * k * lambda * lambda);
  return { d, p: Math.min(1, Math.max(0, p)) };
}

/** Sends `samples` requests of each kind interleaved; returns both latency lists. */
async function compare(name, samples, existingBody, unknownBody) {
  const kinds = shuffle([
    ...Array.from({ length: samples }, (_, i) => ['existing', i]),
    ...Array.from({ length: samples }, (_, i) => ['unknown', i]),
  ]);
  const ms = { existing: [], unknown: [] };
  const answers = { existing: new Map(), unknown: new Map() };
  for (const [kind, i] of kinds) {
    const {
      status,
      text,
      ms: took,
    } = await post(`/api/auth/${name}`, kind === 'existing' ? existingBody(i) : unknownBody(i));
    ms[kind].push(took);
    const answer = `${status} ${text}`;
    answers[kind].set(answer, (answers[kind].get(answer) ?? 0) + 1);
  }
  return { name, ms, answers };
}

try {
  const runId = Date.now().toString(36);
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i += 1) {
    const email = `bench.acct.${runId}.${i}@example.com`;
    await post('/api/auth/generate-code', { email, userType: 'client' });
    const res = await post('/api/auth/register', {
      email,
      password: 'bench password',
      userType: 'client',
      code: await cp.codeFor(email),
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
    accounts.push(email);
  }
  const account = (i) => accounts[i % ACCOUNTS];
  const stranger = (i) => `bench.none.${runId}.${i % ACCOUNTS}@example.com`;

  // Warm-up: JIT, connection pool, argon2's first allocation.
  for (let i = 0; i < scaled(30); i += 1) {
    const email = `bench.warm.${runId}.${i}@example.com`;
    await post('/api/auth/login', { email, password: 'x', userType: 'client' });
    await post('/api/auth/generate-code', { email, userType: 'client' });
  }

  const results = [];
  results.push(
    await compare(
      'generate-code',
      SAMPLES['generate-code'],
      (i) => ({ email: account(i), userType: 'client' }),
      (i) => ({ email: stranger(i), userType: 'client' }),
    ),
  );
  results.push(
    await compare(
      'login',
      SAMPLES.login,
      (i) => ({ email: account(i), password: 'wrong password', userType: 'client' }),
      (i) => ({ email: stranger(i), password: 'wrong password', userType: 'client' }),
    ),
  );
  results.push(
    await compare(
      'forgot-password',
      SAMPLES['forgot-password'],
      (i) => ({ email: account(i), userType: 'client' }),
      (i) => ({ email: stranger(i), userType: 'client' }),
    ),
  );
  results.push(
    await compare(
      'reset-password',
      SAMPLES['reset-password'],
      (i) => ({ email: account(i), code: '000000', newPassword: 'longenough', userType: 'client' }),
      (i) => ({
        email: stranger(i),
        code: '000000',
        newPassword: 'longenough',
        userType: 'client',
      }),
    ),
  );

  console.log(
    'call               n/kind  answers  existing p10/p50/p90 ms    unknown p10/p50/p90 ms     KS D    p',
  );
  let distinguishable = false;
  for (const { name, ms, answers } of results) {
    const tally = (m) => JSON.stringify([...m].sort());
    const same = tally(answers.existing) === tally(answers.unknown);
    const e = [...ms.existing].sort((a, b) => a - b);
    const u = [...ms.unknown].sort((a, b) => a - b);
    const { d, p } = ks(e, u);
    if (!same || p < 0.01) distinguishable = true;
    const q = (s) => [0.1, 0.5, 0.9].map((x) => quantile(s, x).toFixed(1)).join('/');
    console.log(
      `${name.padEnd(19)}${String(e.length).padStart(6)}  ${(same ? 'same' : 'DIFFER').padEnd(7)}  ${q(e).padEnd(26)}${q(u).padEnd(26)}${d.toFixed(3).padStart(6)}  ${p.toFixed(2)}`,
    );
    if (!same)
      console.log('  existing:', [...answers.existing], '\n  unknown:', [...answers.unknown]);
  }
  console.log(
    distinguishable
      ? 'An e-mail with an account can be told apart (answer differs or KS p < 0.01).'
      : 'No call tells an e-mail with an account apart (same answers; KS p >= 0.01 for every call).',
  );
} finally {
  await cp.stop();
}
