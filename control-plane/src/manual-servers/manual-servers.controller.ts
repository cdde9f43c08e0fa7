import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type MessageResponse,
  type NodeServer,
  UPLOAD_SERVER_MESSAGES,
  uploadServerRequestSchema,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import type { ActiveSession } from '../auth/auth.repository';
import { AuthException } from '../auth/auth.exception';
import { isOwnAccount } from '../auth/own-account.decorator';
import { CurrentSession, ForAccountType } from '../auth/session.guard';
import { toNodeServer } from '../nodes/node-server-view';
import { NodesException } from '../nodes/nodes.exception';
import { NodesService } from '../nodes/nodes.service';
import { ManualServersService } from './manual-servers.service';

export class UploadServerDto extends createZodDto(uploadServerRequestSchema) {}

@ApiTags('nodes')
@Controller()
@ForAccountType('node', () => new NodesException('not_a_node_account'))
export class ManualServersController {
  constructor(
    private readonly manual: ManualServersService,
    private readonly nodes: NodesService,
  ) {}

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
    // The owner is in the body (docs/product/calls.md#dashboard-calls); it must be the session's own account.
    if (!isOwnAccount(session, body.uuid)) throw new AuthException('access_denied');
    const server = await this.manual.upload(
      session.account.uuid,
      body.serverInfo.vlessString,
      body.serverInfo.name,
    );
    return {
      success: true,
      message: UPLOAD_SERVER_MESSAGES.uploaded,
      server: toNodeServer(server, this.nodes.view(server)),
    };
  }
}
