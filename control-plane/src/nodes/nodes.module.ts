import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NodesController } from './nodes.controller';
import { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';

/**
 * The operators' servers and the node dashboard. The domains built on servers (enrollment,
 * agent reports, client sets, manual servers, the market) depend on this one, never the reverse:
 * NodesRepository is exported for the server rows they create or read.
 */
@Module({
  imports: [AuthModule],
  controllers: [NodesController],
  providers: [NodesRepository, NodesService],
  exports: [NodesRepository, NodesService],
})
export class NodesModule {}
