import { Body, Controller, Delete, Get, Patch, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type MessageResponse,
  type NodeServerDetails,
  type NodeServerDetailsResponse,
  type NodeServersResponse,
  SERVER_SETTINGS_MESSAGES,
  type UpdateServerResponse,
  updateServerRequestSchema,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import { OwnAccount } from '../auth/own-account.decorator';
import { SessionGuard } from '../auth/session.guard';
import { UuidParam } from '../common/uuid-param';
import type { ServerEntity } from './entities/server.entity';
import { toNodeServer, toNodeServerDetails } from './node-server-view';
import { NodesException } from './nodes.exception';
import { NodesService } from './nodes.service';

export class UpdateServerDto extends createZodDto(updateServerRequestSchema) {}

const serverNotFound = () => new NodesException('server_not_found');

@ApiTags('nodes')
@Controller()
@UseGuards(SessionGuard)
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
