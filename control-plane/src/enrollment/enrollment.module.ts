import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NodesModule } from '../nodes/nodes.module';
import { EnrollmentController } from './enrollment.controller';
import { EnrollmentRepository } from './enrollment.repository';
import { EnrollmentService } from './enrollment.service';
import { InstallerController } from './installer.controller';

/**
 * Enrollment: the setup wizard's tokens, the installer that carries one, and the
 * exchange of a token for a node's credentials (called by the gRPC server's Enroll).
 */
@Module({
  imports: [AuthModule, NodesModule],
  controllers: [EnrollmentController, InstallerController],
  providers: [EnrollmentRepository, EnrollmentService],
  exports: [EnrollmentService],
})
export class EnrollmentModule {}
