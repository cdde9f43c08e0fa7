import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NodesModule } from '../nodes/nodes.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ManualServerCheck } from './manual-server-check';
import { ManualServerCheckJob } from './manual-server-check.job';
import { ManualServersController } from './manual-servers.controller';
import { ManualServersService } from './manual-servers.service';

/**
 * Add New Server (docs/product/input-rules.md#dashboard-input): servers run without our agent, added from a VLESS
 * string after a real check through them, and checked again every minute.
 */
@Module({
  imports: [AuthModule, NodesModule, RateLimitModule],
  controllers: [ManualServersController],
  providers: [ManualServerCheck, ManualServerCheckJob, ManualServersService],
})
export class ManualServersModule {}
