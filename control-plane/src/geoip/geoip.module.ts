import { Global, Module } from '@nestjs/common';
import { GeoIpService } from './geoip.service';

/** GeoIP for every domain (the reachability estimates, the subscriptions' last-used place). */
@Global()
@Module({
  providers: [GeoIpService],
  exports: [GeoIpService],
})
export class GeoIpModule {}
