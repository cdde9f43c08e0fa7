import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ServerTrafficResponse, trafficQuerySchema } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount } from '../auth/own-account.decorator';
import { ForAccountType } from '../auth/session.guard';
import { CLOCK, type Clock } from '../common/clock';
import { UuidParam } from '../common/uuid-param';
import { NodesException } from '../nodes/nodes.exception';
import { NodesService } from '../nodes/nodes.service';
import { addBytes, recentWindow, TrafficRepository } from './traffic.repository';

export class TrafficQueryDto extends createZodDto(trafficQuerySchema) {}

const serverNotFound = () => new NodesException('server_not_found');

/**
 * A server's traffic per day, for the node dashboard (a subscription's, for the
 * client dashboard, is the subscriptions domain's SubscriptionTrafficController).
 */
@ApiTags('traffic')
@Controller()
@ForAccountType('node')
export class TrafficController {
  constructor(
    private readonly nodes: NodesService,
    private readonly traffic: TrafficRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('api/nodes/:uuid/servers/:serverId/traffic')
  @ApiOperation({
    summary:
      "One of your servers' traffic per UTC day (the last `days`, 1-90, default 30), its subscriptions added up",
  })
  async serverTraffic(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
    @Query() query: TrafficQueryDto,
  ): Promise<ServerTrafficResponse> {
    // Another operator's server is not found, as on every node route.
    await this.nodes.ownedServer(uuid, serverId);
    const { from, to } = recentWindow(query.days, this.clock.now());
    const days = await this.traffic.serverDays(serverId, from, to);
    return { success: true, serverId, from, to, days, total: addBytes(days) };
  }
}
