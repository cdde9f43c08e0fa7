import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AgentGrpcServer } from '../grpc/agent-grpc.server';
import { AccountsModule } from '../accounts/accounts.module';
import { MarketModule } from '../market/market.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ClientSetNotifier } from './client-set.notifier';
import { DemoNodesService } from './demo-nodes.service';
import { InstallerController } from './installer.controller';
import { ManualServerCheck } from './manual-server-check';
import { ManualServerCheckJob } from './manual-server-check.job';
import { ManualServersRepository } from './manual-servers.repository';
import { ManualServersService } from './manual-servers.service';
import { NodesController } from './nodes.controller';
import { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';
import { ReliabilitySweepJob } from './reliability-sweep.job';
import { ReportWriter } from './report-writer';
import { ServerReader } from './server-reader';

/** Operator servers: enrollment, the agent gRPC server, reliability, the node dashboard calls. */
@Module({
  imports: [AuthModule, AccountsModule, MarketModule, RateLimitModule],
  controllers: [NodesController, InstallerController],
  providers: [
    NodesRepository,
    NodesService,
    ClientSetNotifier,
    AgentGrpcServer,
    ReliabilitySweepJob,
    DemoNodesService,
    ReportWriter,
    ServerReader,
    ManualServerCheck,
    ManualServerCheckJob,
    ManualServersRepository,
    ManualServersService,
  ],
  // ClientSetNotifier: the readiness check asks whether its LISTEN is in place.
  exports: [NodesService, ClientSetNotifier],
})
export class NodesModule {}
