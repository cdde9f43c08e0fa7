import type { NextFunction, Request, Response } from 'express';
import { unavailableCause } from '../common/request-log';
import type { MetricsRegistry } from './metrics-registry';

/** Requests that matched no route (the portal's pages and files, unknown paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route a request matched, as its pattern (`/wallet/client/:uuid`), never its path: paths
 * carry ids and secrets (`/sub/<secret>`), and a label per id would grow without end.
 */
export function routeOf(request: Request): string {
  const route = (request as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? `${request.baseUrl}${route.path}` : UNMATCHED_ROUTE;
}

export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** Request rate, status and latency per route, and the 503s of an unavailable database. */
export class HttpMetrics {
  private readonly requests;
  private readonly duration;
  private readonly unavailable;

  constructor(metrics: MetricsRegistry) {
    this.requests = metrics.counter({
      name: 'scn_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern, status class and code',
      labelNames: ['method', 'route', 'status_class', 'code'],
    });
    this.duration = metrics.histogram({
      name: 'scn_http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by method, route pattern and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    this.unavailable = metrics.counter({
      name: 'scn_http_unavailable_total',
      help: 'Requests answered 503, by route pattern and cause (database: PostgreSQL did not answer; other: the chain, a probe not ready)',
      labelNames: ['route', 'cause'],
    });
  }

  /** Express middleware: counts each request once, when its answer is finished or abandoned. */
  middleware() {
    return (request: Request, response: Response, next: NextFunction): void => {
      const started = performance.now();
      const ended = () => {
        response.off('close', ended);
        response.off('finish', ended);
        const status = response.statusCode;
        const route = routeOf(request);
        const method = request.method;
        const klass = statusClass(status);
        this.requests.inc({ method, route, status_class: klass, code: String(status) });
        this.duration.observe(
          { method, route, status_class: klass },
          (performance.now() - started) / 1000,
        );
        if (status === 503) this.unavailable.inc({ route, cause: unavailableCause(response) });
      };
      response.on('finish', ended);
      response.on('close', ended);
      next();
    };
  }
}
