import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CLOCK, type Clock, systemClock } from '../common/clock';
import { AGENT_BUNDLE_PATH, type AppConfig } from './app-config';

export const APP_CONFIG = Symbol('APP_CONFIG');
/** Where the agent bundle is (the installer's download and its checksum read the same file). */
export const AGENT_BUNDLE_FILE = Symbol('AGENT_BUNDLE_FILE');

@Global()
@Module({})
export class ConfigModule {
  /**
   * The configuration, the clock and the agent bundle's path, for every module. Tests pass a
   * clock they can move, and may point the bundle elsewhere (a file that does not exist).
   */
  static forRoot(
    config: AppConfig,
    clock: Clock = systemClock,
    agentBundleFile: string = AGENT_BUNDLE_PATH,
  ): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        { provide: AGENT_BUNDLE_FILE, useValue: agentBundleFile },
      ],
      exports: [APP_CONFIG, CLOCK, AGENT_BUNDLE_FILE],
    };
  }
}
