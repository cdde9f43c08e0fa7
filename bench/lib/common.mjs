// Small helpers every benchmark script had written out for itself.
import { fork } from 'node:child_process';

/** A numeric knob from the environment, `fallback` when unset. */
export const env = (name, fallback) => Number(process.env[name] ?? fallback);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A number with thousands separators and `digits` decimals, for the printed figures. */
export const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });

/** The `p`th percentile (0-100) of an ascending array; NaN when it is empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
export async function pool(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/**
 * A forked worker script with request/response over IPC: `call(message)` resolves with the
 * worker's `result` for that message's id, or rejects with its `error` (or when it exits).
 * `label` names the worker in those errors.
 */
export function forkWorker(file, label) {
  const child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let seq = 0;
  const pending = new Map();
  child.on('message', (m) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`${label}: ${m.error}`));
    else p.resolve(m.result);
  });
  child.on('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`${label} exited with ${code}`));
    pending.clear();
  });
  return {
    pid: child.pid,
    call: (message) =>
      new Promise((resolve, reject) => {
        seq += 1;
        pending.set(seq, { resolve, reject });
        child.send({ ...message, id: seq });
      }),
    exit: () => child.connected && child.send({ type: 'exit' }),
  };
}

/** POSTs `body` as JSON to `base` + `path` and returns the JSON answer; throws on a non-2xx. */
export async function postJson(base, path, body, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Registers a fresh node operator through the REST sign-up (code read from the control plane's
 * mail log) and returns its session token.
 */
export async function registerNodeOperator(cp, emailPrefix) {
  const email = `${emailPrefix}.${Date.now()}@example.com`;
  await postJson(cp.base, '/api/auth/generate-code', { email, userType: 'node' });
  const { token } = await postJson(cp.base, '/api/auth/register', {
    email,
    password: 'bench password',
    userType: 'node',
    code: await cp.codeFor(email),
  });
  return token;
}
