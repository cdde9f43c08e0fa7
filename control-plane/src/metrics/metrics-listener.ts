import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { metricsAccess } from './metrics-access';
import { MetricsRegistry } from './metrics-registry';

/**
 * METRICS_PORT: /metrics on a listener of its own (METRICS_HOST, loopback by default), apart
 * from the public API, for a scraper on the same host or private network. Nothing else is
 * served there.
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MetricsListener');
  private server: Server | null = null;

  constructor(
    private readonly metrics: MetricsRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The port bound (METRICS_PORT=0 picks a free one, for tests); null without a listener. */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host, token } = this.config.metrics;
    if (port === null) return;
    const server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
        return;
      }
      const access = metricsAccess(token, request.headers.authorization, true);
      if (access !== 'serve') {
        response
          .writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer' })
          .end('A valid metrics token is required\n');
        return;
      }
      this.metrics.metrics().then(
        (body) =>
          response
            .writeHead(200, {
              'Content-Type': this.metrics.contentType,
              'Cache-Control': 'no-store',
            })
            .end(request.method === 'HEAD' ? undefined : body),
        (err: unknown) => {
          this.logger.error({ err }, 'metrics could not be collected');
          response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal error\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log({ host, port: this.port }, 'Metrics listening');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
