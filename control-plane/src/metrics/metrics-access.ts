import { createHash, timingSafeEqual } from 'node:crypto';

/** What a request for /metrics is answered. */
export type MetricsAccess = 'serve' | 'unauthorized' | 'not_found';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Who may read /metrics (docs/architecture.md#metrics). On PORT: only the holder of
 * METRICS_TOKEN, and nobody when it is unset (404, as if there were no such route: the series
 * tell how busy the platform is and how much money it holds). On METRICS_PORT's own listener
 * (`ownListener`): anyone who reaches it when no token is set, else the token's holder.
 */
export function metricsAccess(
  token: string | null,
  authorization: string | undefined,
  ownListener: boolean,
): MetricsAccess {
  if (token === null) return ownListener ? 'serve' : 'not_found';
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  // Digests of equal length, compared in constant time: the token's length leaks nothing either.
  if (presented !== undefined && timingSafeEqual(digest(presented), digest(token))) return 'serve';
  return 'unauthorized';
}
