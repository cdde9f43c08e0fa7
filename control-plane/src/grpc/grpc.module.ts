import { Module } from '@nestjs/common';
import { AgentReportsModule } from '../agent-reports/agent-reports.module';
import { ClientSetsModule } from '../client-sets/client-sets.module';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { ReachabilityModule } from '../reachability/reachability.module';
import { AgentGrpcServer } from './agent-grpc.server';
import { AgentMetrics } from './agent-metrics';

/**
 * The agent-facing gRPC server. It depends on the domains it serves (Enroll:
 * enrollment; Report and ReportStream: agent reports; WatchClients: client sets) and none of
 * them knows it: it turns wire messages into their calls and their exceptions into statuses.
 */
@Module({
  imports: [EnrollmentModule, AgentReportsModule, ClientSetsModule, ReachabilityModule],
  providers: [AgentGrpcServer, AgentMetrics],
  exports: [AgentGrpcServer],
})
export class GrpcModule {}
