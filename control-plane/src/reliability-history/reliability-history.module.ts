import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NodesModule } from '../nodes/nodes.module';
import { ReliabilityHistoryController } from './reliability-history.controller';
import { ReliabilityHistoryRepository } from './reliability-history.repository';
import { ReliabilityHistoryService } from './reliability-history.service';

/**
 * Each server's reliability over time, per UTC day: written by the reliability
 * sweep (AgentReportsModule imports this module for the service), read by the node dashboard's
 * chart and by the rewards engine (ReliabilityHistoryRepository.periodFacts).
 */
@Module({
  imports: [AuthModule, NodesModule],
  controllers: [ReliabilityHistoryController],
  providers: [ReliabilityHistoryRepository, ReliabilityHistoryService],
  exports: [ReliabilityHistoryRepository, ReliabilityHistoryService],
})
export class ReliabilityHistoryModule {}
