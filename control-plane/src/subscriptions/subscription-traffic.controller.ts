import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SubscriptionTrafficResponse } from '@scn/proto';
import { OwnAccount } from '../auth/own-account.decorator';
import { ForAccountType } from '../auth/session.guard';
import { CLOCK, type Clock } from '../common/clock';
import { UuidParam } from '../common/uuid-param';
import { TrafficQueryDto } from '../traffic/traffic.controller';
import { addBytes, recentWindow, TrafficRepository } from '../traffic/traffic.repository';
import { SubscriptionsException } from './subscriptions.exception';

const subscriptionNotFound = () => SubscriptionsException.of('not_found');

/** One subscription's traffic per server and day, for the client dashboard. */
@ApiTags('traffic')
@Controller()
@ForAccountType('client')
export class SubscriptionTrafficController {
  constructor(
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
}
