import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AgentServerRepository } from './agent-server.repository';
import { ManualServersRepository } from './manual-servers.repository';
import { NodesController } from './nodes.controller';
import { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';
import { ReliabilitySweepRepository } from './reliability-sweep.repository';

/**
 * The operators' servers and the node dashboard. The domains built on servers (enrollment,
 * agent reports, client sets, manual servers, the market) depend on this one, never the reverse:
 * NodesRepository is exported for the server rows they create or read, and the repositories of
 * servers' private columns for the domains that drive them: an agent's credentials and row
 * version (AgentServerRepository), the minute sweep's lifecycle (ReliabilitySweepRepository), a
 * manual server's check (ManualServersRepository).
 */
@Module({
  imports: [AuthModule],
  controllers: [NodesController],
  providers: [
    NodesRepository,
    NodesService,
    AgentServerRepository,
    ReliabilitySweepRepository,
    ManualServersRepository,
  ],
  exports: [
    NodesRepository,
    NodesService,
    AgentServerRepository,
    ReliabilitySweepRepository,
    ManualServersRepository,
  ],
})
export class NodesModule {}
