import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type ServerTrafficResponse,
  type SubscriptionTrafficResponse,
  trafficQuerySchema,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount } from '../auth/own-account.decorator';
import { SessionGuard } from '../auth/session.guard';
import { CLOCK, type Clock } from '../common/clock';
import { UuidParam } from '../common/uuid-param';
import { NodesException } from '../nodes/nodes.exception';
import { NodesService } from '../nodes/nodes.service';
import { SubscriptionsException } from '../subscriptions/subscriptions.exception';
import { addBytes, recentWindow, TrafficRepository } from './traffic.repository';

export class TrafficQueryDto extends createZodDto(trafficQuerySchema) {}

const serverNotFound = () => new NodesException('server_not_found');
const subscriptionNotFound = () => SubscriptionsException.of('not_found');

/** Issue 19 §3: traffic per day, for the client dashboard (per subscription) and the node dashboard (per server). */
@ApiTags('traffic')
@Controller()
@UseGuards(SessionGuard)
export class TrafficController {
  constructor(
    private readonly nodes: NodesService,
    private readonly traffic: TrafficRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('api/clients/subscriptions/:uuid/:subscriptionId/traffic')
  @ApiOperation({
    summary:
      "One of your subscriptions' traffic per server and UTC day (the last `days`, 1-90, default 30), with its totals",
  })
  async subscriptionTraffic(
    @OwnAccount() uuid: string,
    @UuidParam('subscriptionId', subscriptionNotFound) subscriptionId: string,
    @Query() query: TrafficQueryDto,
  ): Promise<SubscriptionTrafficResponse> {
    // Another client's subscription is not found, as on every subscription route.
    if (!(await this.traffic.ownsSubscription(uuid, subscriptionId))) throw subscriptionNotFound();
    const { from, to } = recentWindow(query.days, this.clock.now());
    const [days, allTime] = await Promise.all([
      this.traffic.subscriptionDays(subscriptionId, from, to),
      this.traffic.totalOf(subscriptionId),
    ]);
    return { success: true, subscriptionId, from, to, days, total: addBytes(days), allTime };
  }

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
