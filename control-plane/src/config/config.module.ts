import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CLOCK, type Clock, systemClock } from '../common/clock';
import type { AppConfig } from './app-config';

export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  /** The configuration and the clock, for every module. Tests pass a clock they can move. */
  static forRoot(config: AppConfig, clock: Clock = systemClock): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
      ],
      exports: [APP_CONFIG, CLOCK],
    };
  }
}
