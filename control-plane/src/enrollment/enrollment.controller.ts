import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type EnrollmentTokenResponse, enrollmentTokenRequestSchema } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import type { ActiveSession } from '../auth/auth.repository';
import { CurrentSession, ForAccountType } from '../auth/session.guard';
import { NodesException } from '../nodes/nodes.exception';
import { EnrollmentService } from './enrollment.service';

export class EnrollmentTokenDto extends createZodDto(enrollmentTokenRequestSchema) {}

@ApiTags('nodes')
@Controller()
@ForAccountType('node', () => new NodesException('not_a_node_account'))
export class EnrollmentController {
  constructor(private readonly enrollment: EnrollmentService) {}

  @Post('api/nodes/enrollment-tokens')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Setup wizard: a one-time enrollment token (24 h, bound to the tier and the server name) and the install command',
  })
  async createEnrollmentToken(
    @Body() body: EnrollmentTokenDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<EnrollmentTokenResponse> {
    const issued = await this.enrollment.createEnrollmentToken(session, body.tier, body.name);
    return { success: true, ...issued, expiresAt: issued.expiresAt.toISOString() };
  }
}
