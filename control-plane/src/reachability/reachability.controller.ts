import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Post,
  Put,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  autoRegenerateRequestSchema,
  type MessageResponse,
  type NodeReachabilityResponse,
  probeEnrollmentTokenRequestSchema,
  REACHABILITY_MESSAGES,
  reachabilityReportRequestSchema,
  type ServerReachabilityResponse,
  type VantagePoint,
} from '@scn/proto';
import type { Request } from 'express';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount } from '../auth/own-account.decorator';
import { ForAccountType, SessionGuard } from '../auth/session.guard';
import { clientIp } from '../common/client-ip';
import { UuidParam } from '../common/uuid-param';
import { NodesService } from '../nodes/nodes.service';
import { ClientReportsService } from './client-reports.service';
import { ReachabilityException } from './reachability.exception';
import { ReachabilityService } from './reachability.service';
import { VantagePointsService } from './vantage-points.service';

export class ReachabilityReportDto extends createZodDto(reachabilityReportRequestSchema) {}
export class AutoRegenerateDto extends createZodDto(autoRegenerateRequestSchema) {}
export class ProbeEnrollmentTokenDto extends createZodDto(probeEnrollmentTokenRequestSchema) {}

const serverNotFound = () => new ReachabilityException('server_not_found');
const probeNotFound = () => new ReachabilityException('probe_not_found');

/** Reachability's public reads and clients' reports (docs/reachability.md). */
@ApiTags('reachability')
@Controller()
export class ReachabilityController {
  constructor(
    private readonly reachability: ReachabilityService,
    private readonly reports: ClientReportsService,
  ) {}

  @Get('api/reachability/here')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'The country and network (ASN) the control plane places your address in',
  })
  here(@Req() request: Request) {
    return { success: true as const, network: this.reachability.networkOf(clientIp(request)) };
  }

  @Get('data/servers/:id/reachability')
  @ApiOperation({
    summary: 'Whether a server works, per country and network, from fresh measurements',
  })
  async server(@UuidParam('id', serverNotFound) id: string): Promise<ServerReachabilityResponse> {
    const rows = await this.reachability.rowsOf([id]);
    return { success: true, serverId: id, rows: rows.get(id) ?? [] };
  }

  @Post('api/clients/reachability/:uuid')
  @ForAccountType('client')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'With your consent: whether one of your subscribed servers works in your apps from where you are (tagged with your address’s country and network; rate-limited)',
  })
  async report(
    @OwnAccount() uuid: string,
    @Body() body: ReachabilityReportDto,
    @Req() request: Request,
  ) {
    const answer = await this.reports.report(uuid, body, clientIp(request));
    return { success: true as const, ...answer };
  }
}

/** The operator's view of their servers' reachability, and the automatic regeneration. */
@ApiTags('reachability')
@Controller()
@ForAccountType('node')
export class NodeReachabilityController {
  constructor(
    private readonly reachability: ReachabilityService,
    private readonly nodes: NodesService,
  ) {}

  @Get('nodes/reachability/:uuid')
  @ApiOperation({
    summary: 'Where each of your servers works or is blocked, per country and network',
  })
  async servers(@OwnAccount() uuid: string): Promise<NodeReachabilityResponse> {
    const servers = (await this.nodes.ownedServers(uuid)).filter((s) => s.source === 'agent');
    const rows = await this.reachability.rowsOf(servers.map((s) => s.id));
    return {
      success: true,
      servers: servers.map((s) => ({
        serverId: s.id,
        name: s.name,
        port: s.port,
        autoRegenerateS: s.autoRegenerateS,
        portRegeneratedAt: s.portRegeneratedAt?.toISOString() ?? null,
        rows: rows.get(s.id) ?? [],
      })),
    };
  }

  @Put('nodes/server/:uuid/:serverId/auto-regenerate')
  @ApiOperation({
    summary:
      'Allow (intervalS: at most once per that many seconds) or stop (null) the automatic port regeneration when the server becomes blocked somewhere',
  })
  async autoRegenerate(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
    @Body() body: AutoRegenerateDto,
  ): Promise<MessageResponse> {
    await this.nodes.setAutoRegeneration(uuid, serverId, body.intervalS);
    return { success: true, message: REACHABILITY_MESSAGES.autoRegenerationSaved };
  }
}

/** Vantage points: any signed-in account may run one. */
@ApiTags('reachability')
@Controller()
@UseGuards(SessionGuard)
export class VantagePointsController {
  constructor(private readonly probes: VantagePointsService) {}

  @Post('api/vantage-points/:uuid/enrollment-tokens')
  @ApiOperation({
    summary: 'A one-time token (24 h) that enrolls one vantage point (`scn-agent probe`)',
  })
  async token(@OwnAccount() uuid: string, @Body() body: ProbeEnrollmentTokenDto) {
    const issued = await this.probes.createToken(uuid, body.name);
    return {
      success: true as const,
      token: issued.token,
      expiresAt: issued.expiresAt.toISOString(),
      command: issued.command,
    };
  }

  @Get('api/vantage-points/:uuid')
  @ApiOperation({
    summary: 'Your vantage points: where each is, when it was last seen, what it tested',
  })
  async list(@OwnAccount() uuid: string): Promise<{ success: true; probes: VantagePoint[] }> {
    return { success: true, probes: await this.probes.list(uuid) };
  }

  @Delete('api/vantage-points/:uuid/:probeId')
  @ApiOperation({ summary: 'Deletes one of your vantage points and its observations' })
  async delete(
    @OwnAccount() uuid: string,
    @UuidParam('probeId', probeNotFound) probeId: string,
  ): Promise<MessageResponse> {
    await this.probes.delete(uuid, probeId);
    return { success: true, message: REACHABILITY_MESSAGES.probeDeleted };
  }
}
