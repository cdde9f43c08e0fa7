// A benchmark's requests as from a visitor somewhere (the reachability overlay): the
// address of MARKET_VISITOR / FEED_VISITOR goes in `X-Forwarded-For` on every request, the
// control plane believes it from 127.0.0.1 (TRUST_PROXY), places it by its packaged GeoIP data,
// and reads `server_reachability` for that network. The address is only a header: no packet is
// ever sent to it.
import { isIP } from 'node:net';

/** The knob's address, or null when unset; a value that is not an IP address is refused. */
export function visitorFrom(name) {
  const value = process.env[name]?.trim();
  if (!value) return null;
  if (isIP(value) === 0) throw new Error(`${name} must be an IP address, got "${value}"`);
  return value;
}

/** The control plane's environment for a visitor: its X-Forwarded-For believed from loopback. */
export const visitorEnv = (visitor) => (visitor ? { TRUST_PROXY: '127.0.0.1' } : {});

/** The request headers that carry the visitor's address. */
export const visitorHeaders = (visitor) => (visitor ? { 'x-forwarded-for': visitor } : {});

/**
 * Where the control plane places the visitor (`GET /api/reachability/here`), waiting up to 60 s
 * for its GeoIP database (loaded in the background after start). Null on a build without
 * reachability (the route answers 404): the header is then sent and ignored.
 */
export async function placeVisitor(base, visitor) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(`${base}/api/reachability/here`, {
      headers: visitorHeaders(visitor),
    });
    if (answer.status === 404) return null;
    if (!answer.ok) throw new Error(`/api/reachability/here: ${answer.status}`);
    const { network } = await answer.json();
    if (network.country) return network;
    if (Date.now() > deadline) throw new Error(`${visitor} is placed nowhere after 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Fresh estimates (measured now, of each server's current plan) from the visitor's network for
 * the servers `serversSql` selects (a query answering `id`): every third blocked, the rest
 * working. One INSERT ... SELECT; answers the rows written by state.
 */
export async function seedReachability(db, network, serversSql, params = []) {
  const n = params.length;
  const { rows } = await db.query(
    `WITH chosen AS (SELECT id FROM (${serversSql}) AS q),
          numbered AS (SELECT s.id, s.plan_revision, row_number() OVER (ORDER BY s.id) AS i
                       FROM servers s JOIN chosen c ON c.id = s.id),
          written AS (
            INSERT INTO server_reachability (server_id, country, asn, score, state, observers,
                                             probes, measured_at, blocked_since, plan_revision)
            SELECT id, $${n + 1}, $${n + 2},
                   CASE WHEN i % 3 = 0 THEN 120 ELSE 940 END,
                   CASE WHEN i % 3 = 0 THEN 'b' ELSE 'w' END,
                   5, 2, now(), CASE WHEN i % 3 = 0 THEN now() - interval '1 hour' END,
                   plan_revision
            FROM numbered
            RETURNING state)
     SELECT state, count(*)::int AS rows FROM written GROUP BY state ORDER BY state`,
    [...params, network.country, network.asn ?? 0],
  );
  await db.query('ANALYZE server_reachability');
  return Object.fromEntries(rows.map((r) => [r.state, r.rows]));
}

/** One line saying what the visitor knob did in this run. */
export function describeVisitor(visitor, network, seeded) {
  if (!network)
    return `visitor ${visitor} (X-Forwarded-For, TRUST_PROXY=127.0.0.1): this build has no reachability; the header is sent and not read for it`;
  const states = Object.entries(seeded)
    .map(([state, count]) => `${count.toLocaleString('en')} '${state}'`)
    .join(', ');
  return `visitor ${visitor} (X-Forwarded-For, TRUST_PROXY=127.0.0.1): placed in ${network.country} AS${network.asn} (${network.asnName}); server_reachability rows seeded for it: ${states}`;
}
