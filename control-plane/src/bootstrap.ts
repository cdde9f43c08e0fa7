import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Logger as PinoLogger } from 'pino';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppOptions, ROOT_LOGGER } from './app.module';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { requestLog } from './common/request-log';
import { ContractValidationPipe } from './common/validation';
import type { AppConfig } from './config/app-config';
import { setupOpenApi } from './openapi';
import { OriginCheckedIoAdapter, realtimeOrigins } from './realtime/origin-checked-io.adapter';
import { servePortal } from './portal/serve-portal';

/** spec: bodies over 100 kB are refused with 413. */
export const BODY_LIMIT = '100kb';

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
  app.use(requestLog(app.get<PinoLogger>(ROOT_LOGGER)));
  app.set('trust proxy', config.trustProxy);
  app.useWebSocketAdapter(new OriginCheckedIoAdapter(app, realtimeOrigins(config)));
  app.disable('x-powered-by');
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'img-src': ["'self'", 'data:'],
          'connect-src': ["'self'"],
          'upgrade-insecure-requests': config.secureCookies ? [] : null,
        },
      },
      strictTransportSecurity: config.secureCookies,
    }),
  );
  app.use(cookieParser());
  app.use(express.json({ limit: BODY_LIMIT, reviver: refuseNul }));
  app.use(bodyParserErrors);
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(new ContractValidationPipe());
  setupOpenApi(app);
  servePortal(app, config);
  return app;
}

const NUL_REFUSED = 'Text in the request body must not contain NUL characters';

/** PostgreSQL cannot store U+0000 in text or jsonb: refuse it at the door (400), everywhere. */
function refuseNul(_key: string, value: unknown): unknown {
  if (typeof value === 'string' && value.includes('\u0000')) throw new Error(NUL_REFUSED);
  return value;
}

/** The JSON parser runs before Nest: give its failures the API's error shape too. */
function bodyParserErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.too.large') {
    res.status(413).json({ success: false, message: 'Request body too large (limit 100 kB)' });
  } else if (type === 'entity.parse.failed') {
    const nul = (error as { message?: string }).message === NUL_REFUSED;
    res
      .status(400)
      .json({ success: false, message: nul ? NUL_REFUSED : 'Malformed JSON in request body' });
  } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    res.status(415).json({ success: false, message: 'Unsupported request body encoding' });
  } else {
    next(error);
  }
}
