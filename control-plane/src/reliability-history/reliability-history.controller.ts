import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ServerReliabilityResponse, serverReliabilityQuerySchema } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount } from '../auth/own-account.decorator';
import { ForAccountType } from '../auth/session.guard';
import { CLOCK, type Clock } from '../common/clock';
import { UuidParam } from '../common/uuid-param';
import { NodesException } from '../nodes/nodes.exception';
import { NodesService } from '../nodes/nodes.service';
import { RELIABILITY } from '../reliability/reliability';
import { ReliabilityHistoryService } from './reliability-history.service';

export class ServerReliabilityQueryDto extends createZodDto(serverReliabilityQuerySchema) {}

const serverNotFound = () => new NodesException('server_not_found');

/** The node dashboard's reliability chart, per server and UTC day. */
@ApiTags('nodes')
@Controller()
@ForAccountType('node')
export class ReliabilityHistoryController {
  constructor(
    private readonly nodes: NodesService,
    private readonly history: ReliabilityHistoryService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('api/nodes/:uuid/servers/:serverId/reliability')
  @ApiOperation({
    summary:
      "One of your servers' reliability per UTC day (the last `days`, 1-90, default 30): average, minimum, time below 95% and why it dropped",
  })
  async serverReliability(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
    @Query() query: ServerReliabilityQueryDto,
  ): Promise<ServerReliabilityResponse> {
    // Another operator's server is not found, as on every node route.
    await this.nodes.ownedServer(uuid, serverId);
    const history = await this.history.recentDays(serverId, query.days, this.clock.now());
    return { success: true, serverId, ...history, threshold: RELIABILITY.hideBelow };
  }
}
