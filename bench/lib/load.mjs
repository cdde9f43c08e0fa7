// A closed-loop HTTP load generator: `concurrency` workers each send requests back to back
// until `total` requests are done. Returns latency percentiles and throughput.
import { Agent, request } from 'node:http';

export async function load({
  url,
  method = 'GET',
  headers = {},
  body,
  concurrency = 50,
  total = 5000,
}) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies = [];
  let sent = 0;
  let failures = 0;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const once = () =>
    new Promise((resolve) => {
      const started = process.hrtime.bigint();
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method,
          headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode >= 400) failures += 1;
            latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            resolve();
          });
        },
      );
      req.on('error', () => {
        failures += 1;
        resolve();
      });
      if (payload) req.write(payload);
      req.end();
    });
  const worker = async () => {
    while (sent < total) {
      sent += 1;
      await once();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    requests: latencies.length,
    failures,
    rps: Math.round(latencies.length / seconds),
    p50: pct(50).toFixed(2),
    p99: pct(99).toFixed(2),
  };
}
