import { Body, Controller, Delete, Get, Param, Patch, UseGuards } from '@nestjs/common';
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
import { OwnsAccountGuard, SessionGuard } from '../auth/session.guard';
import type { ServerEntity } from './entities/server.entity';
import { toNodeServer, toNodeServerDetails } from './node-server-view';
import { NodesException } from './nodes.exception';
import { NodesService } from './nodes.service';

export class UpdateServerDto extends createZodDto(updateServerRequestSchema) {}

/** A server id from the path; anything but a UUID cannot name a server, so it is not found. */
function serverIdOf(serverId: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(serverId)) {
    throw new NodesException('server_not_found');
  }
  return serverId.toLowerCase();
}

@ApiTags('nodes')
@Controller()
@UseGuards(SessionGuard)
export class NodesController {
  constructor(private readonly nodes: NodesService) {}

  @Get('nodes/servers/:uuid')
  @UseGuards(OwnsAccountGuard)
  @ApiOperation({ summary: "The operator's own servers with their computed health" })
  async servers(@Param('uuid') uuid: string): Promise<NodeServersResponse> {
    const servers = await this.nodes.ownedServers(uuid);
    return { success: true, servers: servers.map((s) => toNodeServer(s, this.nodes.view(s))) };
  }

  @Get('nodes/server/:uuid/:serverId')
  @UseGuards(OwnsAccountGuard)
  @ApiOperation({
    summary:
      'Node Configuration: one of your servers with its agent, proxy core, inbound and hardware',
  })
  async server(
    @Param('uuid') uuid: string,
    @Param('serverId') serverId: string,
  ): Promise<NodeServerDetailsResponse> {
    const server = await this.nodes.ownedServer(uuid.toLowerCase(), serverIdOf(serverId));
    return { success: true, server: await this.details(server) };
  }

  @Patch('nodes/server/:uuid/:serverId')
  @UseGuards(OwnsAccountGuard)
  @ApiOperation({
    summary:
      'Node Configuration: rename one of your servers or set its country (ISO 3166-1 alpha-2) and location',
  })
  async update(
    @Param('uuid') uuid: string,
    @Param('serverId') serverId: string,
    @Body() body: UpdateServerDto,
  ): Promise<UpdateServerResponse> {
    const server = await this.nodes.updateServer(uuid.toLowerCase(), serverIdOf(serverId), body);
    return {
      success: true,
      message: SERVER_SETTINGS_MESSAGES.updated,
      server: await this.details(server),
    };
  }

  @Delete('nodes/server/:uuid/:serverId')
  @UseGuards(OwnsAccountGuard)
  @ApiOperation({ summary: 'Delete one of your servers (its agent is refused from then on)' })
  async delete(
    @Param('uuid') uuid: string,
    @Param('serverId') serverId: string,
  ): Promise<MessageResponse> {
    if (
      !/^[0-9a-f-]{36}$/i.test(serverId) ||
      !(await this.nodes.deleteServer(uuid, serverId.toLowerCase()))
    ) {
      throw new NodesException('server_not_found');
    }
    return { success: true, message: 'Server deleted' };
  }

  private async details(server: ServerEntity): Promise<NodeServerDetails> {
    const slots = await this.nodes.clientSlots(server.id);
    return toNodeServerDetails(server, this.nodes.view(server), slots);
  }
}
