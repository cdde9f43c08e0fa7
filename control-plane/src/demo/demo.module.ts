import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import type { AppConfig } from '../config/app-config';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { GrpcModule } from '../grpc/grpc.module';
import { NodesModule } from '../nodes/nodes.module';
import { DemoNodesService } from './demo-nodes.service';

/**
 * The demo nodes of `npm start` (DEMO_NODES): not part of the production application, which
 * imports this module only when demo seeding is configured (AppModule.forRoot).
 */
@Module({
  imports: [AccountsModule, EnrollmentModule, GrpcModule, NodesModule],
  providers: [DemoNodesService],
})
export class DemoModule {
  /** Demo nodes are asked for, and agents have a gRPC server to enroll with. */
  static enabled(config: AppConfig): boolean {
    return config.demoNodes > 0 && config.grpcPort !== null;
  }
}
