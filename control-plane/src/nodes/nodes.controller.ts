import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  changeTransportRequestSchema,
  INBOUND_PLAN_MESSAGES,
  type MessageResponse,
  regeneratePortRequestSchema,
  type NodeServerDetails,
  type NodeServerDetailsResponse,
  type NodeServersResponse,
  SERVER_SETTINGS_MESSAGES,
  type UpdateServerResponse,
  updateServerRequestSchema,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount } from '../auth/own-account.decorator';
import { ForAccountType } from '../auth/session.guard';
import { UuidParam } from '../common/uuid-param';
import type { ServerEntity } from './entities/server.entity';
import { toNodeServer, toNodeServerDetails } from './node-server-view';
import { NodesException } from './nodes.exception';
import { NodesService } from './nodes.service';

export class UpdateServerDto extends createZodDto(updateServerRequestSchema) {}
export class ChangeTransportDto extends createZodDto(changeTransportRequestSchema) {}
export class RegeneratePortDto extends createZodDto(regeneratePortRequestSchema) {}

const serverNotFound = () => new NodesException('server_not_found');

@ApiTags('nodes')
@Controller()
@ForAccountType('node')
export class NodesController {
  constructor(private readonly nodes: NodesService) {}

  @Get('nodes/servers/:uuid')
  @ApiOperation({ summary: "The operator's own servers with their computed health" })
  async servers(@OwnAccount() uuid: string): Promise<NodeServersResponse> {
    const servers = await this.nodes.ownedServers(uuid);
    return { success: true, servers: servers.map((s) => toNodeServer(s, this.nodes.view(s))) };
  }

  @Get('nodes/server/:uuid/:serverId')
  @ApiOperation({
    summary:
      'Node Configuration: one of your servers with its agent, proxy core, inbound and hardware',
  })
  async server(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
  ): Promise<NodeServerDetailsResponse> {
    const server = await this.nodes.ownedServer(uuid, serverId);
    return { success: true, server: await this.details(server) };
  }

  @Patch('nodes/server/:uuid/:serverId')
  @ApiOperation({
    summary:
      'Node Configuration: rename one of your servers or set its country (ISO 3166-1 alpha-2) and location',
  })
  async update(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
    @Body() body: UpdateServerDto,
  ): Promise<UpdateServerResponse> {
    const server = await this.nodes.updateServer(uuid, serverId, body);
    return {
      success: true,
      message: SERVER_SETTINGS_MESSAGES.updated,
      server: await this.details(server),
    };
  }

  @Patch('nodes/server/:uuid/:serverId/transport')
  @ApiOperation({
    summary:
      'Node Configuration: the transport one of your agent servers serves (reality/tcp with Xray only, tls/tcp, tls/ws, tls/grpc with Xray only); pushed to the node at once, links follow its next report',
  })
  async changeTransport(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
    @Body() body: ChangeTransportDto,
  ): Promise<UpdateServerResponse> {
    const server = await this.nodes.changeTransport(uuid, serverId, body.transport);
    return {
      success: true,
      message: INBOUND_PLAN_MESSAGES.transportChanged,
      server: await this.details(server),
    };
  }

  @Post('nodes/server/:uuid/:serverId/regenerate-port')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Node Configuration: emergency regeneration of one of your agent servers\' port (body {"confirm": true}; at most once per 10 minutes); a new random port, pushed to the node at once',
  })
  async regeneratePort(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
    @Body() _body: RegeneratePortDto,
  ): Promise<UpdateServerResponse> {
    const server = await this.nodes.regeneratePort(uuid, serverId);
    return {
      success: true,
      message: INBOUND_PLAN_MESSAGES.portRegenerated(server.planPort ?? 0),
      server: await this.details(server),
    };
  }

  @Delete('nodes/server/:uuid/:serverId')
  @ApiOperation({ summary: 'Delete one of your servers (its agent is refused from then on)' })
  async delete(
    @OwnAccount() uuid: string,
    @UuidParam('serverId', serverNotFound) serverId: string,
  ): Promise<MessageResponse> {
    if (!(await this.nodes.deleteServer(uuid, serverId))) throw serverNotFound();
    return { success: true, message: 'Server deleted' };
  }

  private async details(server: ServerEntity): Promise<NodeServerDetails> {
    const slots = await this.nodes.clientSlots(server.id);
    return toNodeServerDetails(server, this.nodes.view(server), slots);
  }
}
