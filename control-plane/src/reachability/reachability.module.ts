import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MarketModule } from '../market/market.module';
import { VISITOR_REACHABILITY } from '../market/visitor-reachability';
import { NodesModule } from '../nodes/nodes.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SUBSCRIPTION_REACHABILITY } from '../subscriptions/subscription-reachability';
import { ClientReportsRepository } from './client-reports.repository';
import { ClientReportsService } from './client-reports.service';
import {
  NodeReachabilityController,
  ReachabilityController,
  VantagePointsController,
} from './reachability.controller';
import { ReachabilityJob } from './reachability.job';
import { ReachabilityUpkeepService } from './reachability-upkeep.service';
import { ReachabilityRepository } from './reachability.repository';
import { ReachabilityService } from './reachability.service';
import { VantagePointsRepository } from './vantage-points.repository';
import { VantagePointsService } from './vantage-points.service';

/**
 * Reachability per server, country and network (docs/reachability.md): vantage points and
 * clients' reports in, estimates out. Exports the service (the feed and replacements read it,
 * the gRPC server hands it vantage points' calls) and gives the market and subscriptions their
 * readers: global only for that, as neither can import this module (it imports both).
 */
@Global()
@Module({
  imports: [AuthModule, MarketModule, NodesModule, RateLimitModule],
  controllers: [ReachabilityController, NodeReachabilityController, VantagePointsController],
  providers: [
    ReachabilityRepository,
    ReachabilityService,
    VantagePointsRepository,
    VantagePointsService,
    ClientReportsRepository,
    ClientReportsService,
    ReachabilityUpkeepService,
    ReachabilityJob,
    { provide: VISITOR_REACHABILITY, useExisting: ReachabilityService },
    { provide: SUBSCRIPTION_REACHABILITY, useExisting: ReachabilityService },
  ],
  exports: [
    ReachabilityService,
    VantagePointsService,
    VISITOR_REACHABILITY,
    SUBSCRIPTION_REACHABILITY,
  ],
})
export class ReachabilityModule {}
