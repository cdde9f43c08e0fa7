import type { IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';
import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule, type Params } from 'nestjs-pino';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import type { Clock } from './common/clock';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContactModule } from './contact/contact.module';
import { DownloadsModule } from './downloads/downloads.module';
import { dataSourceOptions } from './database/data-source';
import { HealthController } from './health/health.controller';
import { MailModule } from './mail/mail.module';
import { MarketModule } from './market/market.module';
import { NodesModule } from './nodes/nodes.module';
import { RealtimeModule } from './realtime/realtime.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { WalletModule } from './wallet/wallet.module';

/** Never logged: credentials, cookies, and the bodies that carry passwords and codes. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'newPassword',
  'code',
  'token',
];

/** Subscription URLs (`/sub/<secret>`) are keys by themselves: their secret is never logged. */
export function maskSecretPath(path: string): string {
  return path.replace(/^\/sub\/[^/]*/i, '/sub/[redacted]');
}

function loggerParams(config: AppConfig, logStream?: Writable): Params {
  const options = {
    level: config.logLevel,
    redact: { paths: LOG_REDACT, censor: '[redacted]' },
    transport:
      config.logPretty && !logStream
        ? { target: 'pino-pretty', options: { singleLine: true } }
        : undefined,
    // The query string may carry secrets later (subscription links): log the path only.
    serializers: {
      req: (req: { method: string; url: string; id: unknown }) => ({
        id: req.id,
        method: req.method,
        path: maskSecretPath(req.url.split('?')[0] ?? ''),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === '/healthz' },
  };
  return { pinoHttp: logStream ? [options, logStream] : options };
}

export interface AppOptions {
  /** Replaces stdout as the log destination (tests read what would be logged). */
  logStream?: Writable;
  /** The domain's clock (tests move time). */
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, options.clock),
        LoggerModule.forRoot(loggerParams(config, options.logStream)),
        TypeOrmModule.forRoot(dataSourceOptions(databaseUrl)),
        MailModule,
        RealtimeModule,
        AccountsModule,
        AuthModule,
        ContactModule,
        NodesModule,
        MarketModule,
        WalletModule,
        SubscriptionsModule,
        DownloadsModule,
      ],
      controllers: [HealthController],
    };
  }
}
