import { Body, Controller, Delete, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type EnrollmentTokenResponse,
  enrollmentTokenRequestSchema,
  type MessageResponse,
  type NodeServer,
  type NodeServerDetails,
  type NodeServerDetailsResponse,
  type NodeServersResponse,
  SERVER_SETTINGS_MESSAGES,
  type UpdateServerResponse,
  updateServerRequestSchema,
  UPLOAD_SERVER_MESSAGES,
  uploadServerRequestSchema,
  VPS_TIERS,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import type { ActiveSession } from '../auth/auth.repository';
import { AuthException } from '../auth/auth.exception';
import { isOwnAccount, OwnAccount } from '../auth/own-account.decorator';
import { CurrentSession, SessionGuard } from '../auth/session.guard';
import { UuidParam } from '../common/uuid-param';
import type { ServerEntity } from './entities/server.entity';
import { NodesException } from './nodes.exception';
import { NodesRepository } from './nodes.repository';
import { manualCheckState, ManualServersService } from './manual-servers.service';
import { NodesService } from './nodes.service';

export class EnrollmentTokenDto extends createZodDto(enrollmentTokenRequestSchema) {}
export class UploadServerDto extends createZodDto(uploadServerRequestSchema) {}
export class UpdateServerDto extends createZodDto(updateServerRequestSchema) {}

const serverNotFound = () => new NodesException('server_not_found');

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function count(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

@ApiTags('nodes')
@Controller()
@UseGuards(SessionGuard)
export class NodesController {
  constructor(
    private readonly nodes: NodesService,
    private readonly manual: ManualServersService,
    private readonly repository: NodesRepository,
  ) {}

  @Post('api/nodes/enrollment-tokens')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Setup wizard: a one-time enrollment token (24 h, bound to the tier) and the install command',
  })
  async createEnrollmentToken(
    @Body() body: EnrollmentTokenDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<EnrollmentTokenResponse> {
    const issued = await this.nodes.createEnrollmentToken(session, body.tier);
    return { success: true, ...issued, expiresAt: issued.expiresAt.toISOString() };
  }

  @Get('nodes/servers/:uuid')
  @ApiOperation({ summary: "The operator's own servers with their computed health" })
  async servers(@OwnAccount() uuid: string): Promise<NodeServersResponse> {
    const servers = await this.repository.listOwnedServers(uuid);
    return { success: true, servers: servers.map((s) => this.toNodeServer(s)) };
  }

  @Post('nodes/upload-server')
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Add New Server: a server without our agent, from its VLESS string. Its address must be public and it must pass a VLESS check with the link's UUID; it is listed free (shared credentials, no earnings) and checked every 60 s",
  })
  async uploadServer(
    @Body() body: UploadServerDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<MessageResponse & { server: NodeServer }> {
    // The owner is in the body (spec 02 §7); it must be the session's own account.
    if (!isOwnAccount(session, body.uuid)) throw new AuthException('access_denied');
    if (session.account.userType !== 'node') throw new NodesException('not_a_node_account');
    const server = await this.manual.upload(
      session.account.uuid,
      body.serverInfo.vlessString,
      body.serverInfo.name,
    );
    return {
      success: true,
      message: UPLOAD_SERVER_MESSAGES.uploaded,
      server: this.toNodeServer(server),
    };
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
    return { success: true, server: await this.toNodeServerDetails(server) };
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
      server: await this.toNodeServerDetails(server),
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

  private toNodeServer(server: ServerEntity): NodeServer {
    const view = this.nodes.view(server);
    return {
      id: server.id,
      name: server.name,
      source: server.source,
      tier: server.tier,
      host: server.host,
      port: server.port,
      // spec 01 §9: uptime is shown in hours.
      uptime: Math.floor(Number(server.uptimeSeconds) / 3600),
      connections: server.activeClients,
      reliability: view.reliability,
      available: view.available,
      hidden: view.hidden,
      banned: view.banned,
      ping: server.pingMs,
      coreState: server.coreState,
      lastHealthUpdate: server.lastReportAt?.toISOString() ?? null,
      created: server.createdAt.toISOString(),
      vlessString: server.vlessString,
      country: server.country?.trim() || null,
      location: server.location,
      sharedCredentials: server.source === 'manual',
      check: this.checkOf(server),
    };
  }

  private checkOf(server: ServerEntity): NodeServer['check'] {
    const state = manualCheckState(server);
    if (!state) return null;
    return {
      state,
      checkedAt: server.checkedAt?.toISOString() ?? null,
      error: server.checkError,
    };
  }

  private async toNodeServerDetails(server: ServerEntity): Promise<NodeServerDetails> {
    const inbound = server.inbound;
    const hardware = server.hardware;
    const slots = await this.nodes.clientSlots(server.id);
    return {
      ...this.toNodeServer(server),
      maxClients: VPS_TIERS.find((tier) => tier.id === server.tier)?.maxClients ?? null,
      agentVersion: server.agentVersion,
      // An agent node has no inbound until its first report.
      inbound:
        inbound && typeof inbound.security === 'string'
          ? {
              security: inbound.security,
              sni: text(inbound.sni),
              fp: text(inbound.fp),
              pbk: text(inbound.pbk),
              sid: text(inbound.sid),
              flow: text(inbound.flow),
              type: text(inbound.network) || 'tcp',
            }
          : null,
      hardware: hardware
        ? {
            os: text(hardware.os),
            osRelease: text(hardware.osRelease),
            arch: text(hardware.arch),
            cpuCores: count(hardware.cpuCores),
            cpuModel: text(hardware.cpuModel),
            cpuGhz: count(hardware.cpuGhz),
            ramBytes: count(hardware.ramBytes),
            diskBytes: count(hardware.diskBytes),
          }
        : null,
      allowedClients: slots.allowed,
      clientSetVersion: slots.version,
      appliedClientSetVersion: String(server.appliedClientSetVersion),
      updated: server.updatedAt.toISOString(),
    };
  }
}
