import type { Writable } from 'node:stream';
import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { type Logger as PinoLogger, pino } from 'pino';
import { AccountsModule } from './accounts/accounts.module';
import { AgentReportsModule } from './agent-reports/agent-reports.module';
import { AuthModule } from './auth/auth.module';
import { EconomicsModule } from './economics/economics.module';
import { ClientSetsModule } from './client-sets/client-sets.module';
import type { Clock } from './common/clock';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContactModule } from './contact/contact.module';
import { DownloadsModule } from './downloads/downloads.module';
import { dataSourceOptions } from './database/data-source';
import { DatabaseModule } from './database/database.module';
import { DemoModule } from './demo/demo.module';
import { DepositsModule } from './deposits/deposits.module';
import { EnrollmentModule } from './enrollment/enrollment.module';
import { GeoIpModule } from './geoip/geoip.module';
import { GrpcModule } from './grpc/grpc.module';
import { JobsModule } from './jobs/jobs.module';
import { HealthController } from './health/health.controller';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { MailModule } from './mail/mail.module';
import { ManualServersModule } from './manual-servers/manual-servers.module';
import { MarketModule } from './market/market.module';
import { MetricsCoreModule, MetricsModule } from './metrics/metrics.module';
import { ReachabilityModule } from './reachability/reachability.module';
import { NodeDnsModule } from './node-dns/node-dns.module';
import { NodesModule } from './nodes/nodes.module';
import { PromotionsModule } from './promotions/promotions.module';
import { RealtimeModule } from './realtime/realtime.module';
import { RewardsModule } from './rewards/rewards.module';
import { SocialModule } from './social/social.module';
import { StakingModule } from './staking/staking.module';
import { ReliabilityHistoryModule } from './reliability-history/reliability-history.module';
import { TrafficModule } from './traffic/traffic.module';
import { SubscriptionFeedModule } from './subscription-feed/subscription-feed.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { WalletModule } from './wallet/wallet.module';
import { WithdrawalsModule } from './withdrawals/withdrawals.module';

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

/** The process's root logger: the Nest logger writes through it, and so does the access log. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

function rootLogger(config: AppConfig, logStream?: Writable): PinoLogger {
  const options = {
    level: config.logLevel,
    redact: { paths: LOG_REDACT, censor: '[redacted]' },
    transport:
      config.logPretty && !logStream
        ? { target: 'pino-pretty', options: { singleLine: true } }
        : undefined,
  };
  return logStream ? pino(options, logStream) : pino(options);
}

export interface AppOptions {
  /** Replaces stdout as the log destination (tests read what would be logged). */
  logStream?: Writable;
  /** The domain's clock (tests move time). */
  clock?: Clock;
  /** The agent bundle's path (default AGENT_BUNDLE_PATH; tests name one that is not there). */
  agentBundleFile?: string;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string, options: AppOptions = {}): DynamicModule {
    const logger = rootLogger(config, options.logStream);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, options.clock, options.agentBundleFile),
        // nestjs-pino adapts Nest's logger to `logger`; no per-request middleware (no routes):
        // the access log is `requestLog`, and log lines carry a request's id where they need it.
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
        TypeOrmModule.forRoot(dataSourceOptions(databaseUrl, config.databaseTimeouts)),
        DatabaseModule,
        LifecycleModule,
        JobsModule,
        MetricsCoreModule,
        GeoIpModule,
        MailModule,
        RealtimeModule,
        AccountsModule,
        AuthModule,
        ContactModule,
        NodesModule,
        NodeDnsModule,
        EnrollmentModule,
        AgentReportsModule,
        ReliabilityHistoryModule,
        TrafficModule,
        ClientSetsModule,
        ManualServersModule,
        GrpcModule,
        MarketModule,
        WalletModule,
        DepositsModule,
        EconomicsModule,
        WithdrawalsModule,
        SubscriptionsModule,
        SubscriptionFeedModule,
        ReachabilityModule,
        RewardsModule,
        DownloadsModule,
        StakingModule,
        PromotionsModule,
        SocialModule,
        MetricsModule,
        // The demo nodes of `npm start`, only when DEMO_NODES asks for them.
        ...(DemoModule.enabled(config) ? [DemoModule] : []),
      ],
      controllers: [HealthController],
      providers: [{ provide: ROOT_LOGGER, useValue: logger }],
    };
  }
}
