import { Global, Logger, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DrainCoordinator } from './drain-coordinator';

/** The process's one drain coordinator, for the parts that hold connections and for readiness. */
@Global()
@Module({
  providers: [
    {
      provide: DrainCoordinator,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new DrainCoordinator(config.drain, new Logger('Shutdown')),
    },
  ],
  exports: [DrainCoordinator],
})
export class LifecycleModule {}
