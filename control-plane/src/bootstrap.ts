import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import type { Logger as PinoLogger } from 'pino';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppOptions, ROOT_LOGGER } from './app.module';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { CLOCK, type Clock } from './common/clock';
import { bodyParserErrors, jsonBody } from './common/json-body';
import { requestLog } from './common/request-log';
import { HttpMetrics } from './metrics/http-metrics';
import { ContractValidationPipe } from './common/validation';
import type { AppConfig } from './config/app-config';
import { setupOpenApi } from './openapi';
import { OriginCheckedIoAdapter, realtimeOrigins } from './realtime/origin-checked-io.adapter';
import { servePortal } from './portal/serve-portal';
import { FeedAnswer } from './subscription-feed/feed-answer';

/** The local chain's demo wallet, another origin the portal may call (localnet only). */
function demoWalletOrigins(config: AppConfig): string[] {
  const url = config.solana?.demoWalletUrl;
  return url ? [new URL(url).origin] : [];
}

/** Builds the HTTP application (REST API, OpenAPI, portal) without listening. */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  options: AppOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, databaseUrl, options),
    {
      bodyParser: false,
      bufferLogs: true,
    },
  );
  app.useLogger(app.get(Logger));
  // Nest flushes the logs it buffered at listen(); until then (and forever in an app that is only
  // init()-ed, as the test suites' are) every Nest logger line would wait in its buffer.
  app.flushLogs();
  app.use(requestLog(app.get<PinoLogger>(ROOT_LOGGER)));
  app.use(app.get(HttpMetrics).middleware());
  app.set('trust proxy', config.trustProxy);
  app.useWebSocketAdapter(new OriginCheckedIoAdapter(app, realtimeOrigins(config)));
  app.disable('x-powered-by');
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'img-src': ["'self'", 'data:'],
          // localnet: the portal's "Pay with the demo wallet" posts to the local chain.
          'connect-src': ["'self'", ...demoWalletOrigins(config)],
          'upgrade-insecure-requests': config.secureCookies ? [] : null,
        },
      },
      strictTransportSecurity: config.secureCookies,
    }),
  );
  // The subscription feed's fast path (docs/architecture.md#subscription-feed): apps fetch it far
  // more than anything else, and it reads no cookie, no body and no session. After the request
  // log, the metrics, TRUST_PROXY and the security headers, before everything else.
  app.use(app.get(FeedAnswer).middleware());
  app.use(cookieParser());
  app.use(jsonBody());
  app.use(bodyParserErrors);
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(new ContractValidationPipe());
  const openApi = setupOpenApi(app);
  servePortal(app, config, Object.keys(openApi.paths), app.get<Clock>(CLOCK));
  return app;
}
