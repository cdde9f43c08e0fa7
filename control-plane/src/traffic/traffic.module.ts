import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NodesModule } from '../nodes/nodes.module';
import { TrafficController } from './traffic.controller';
import { TrafficRepository } from './traffic.repository';

/**
 * The traffic rows' reads and pruning alone, for the subscription URL (its
 * `subscription-userinfo`) and the reliability sweep (which prunes), without the dashboards'
 * dependencies.
 */
@Module({
  providers: [TrafficRepository],
  exports: [TrafficRepository],
})
export class TrafficStoreModule {}

/**
 * Traffic users can see: per subscription, server and UTC day, written by the
 * report writer (agent reports), read by the client and node dashboards.
 */
@Module({
  imports: [AuthModule, NodesModule, TrafficStoreModule],
  controllers: [TrafficController],
})
export class TrafficModule {}
