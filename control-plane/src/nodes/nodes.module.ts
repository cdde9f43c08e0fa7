import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AgentGrpcServer } from '../grpc/agent-grpc.server';
import { AccountsModule } from '../accounts/accounts.module';
import { MarketModule } from '../market/market.module';
import { ClientSetNotifier } from './client-set.notifier';
import { DemoNodesService } from './demo-nodes.service';
import { InstallerController } from './installer.controller';
import { NodesController } from './nodes.controller';
import { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';
import { ReliabilitySweepJob } from './reliability-sweep.job';
import { ReportWriter } from './report-writer';
import { ServerReader } from './server-reader';

/** Operator servers: enrollment, the agent gRPC server, reliability, the node dashboard calls. */
@Module({
  imports: [AuthModule, AccountsModule, MarketModule],
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
  ],
  // ClientSetNotifier: the readiness check asks whether its LISTEN is in place.
  exports: [NodesService, ClientSetNotifier],
})
export class NodesModule {}
