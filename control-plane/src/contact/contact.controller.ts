import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { contactRequestSchema, type MessageResponse } from '@scn/proto';
import type { Request } from 'express';
import { createZodDto } from 'nestjs-zod';
import { SessionService } from '../auth/session.service';
import { sessionTokenOf } from '../auth/session-cookie';
import { clientIp } from '../common/client-ip';
import { ContactService } from './contact.service';

export class ContactDto extends createZodDto(contactRequestSchema) {}

@ApiTags('contact')
@Controller('api/contact')
export class ContactController {
  constructor(
    private readonly contact: ContactService,
    private readonly sessions: SessionService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Send a message to support (stored, then e-mailed to SUPPORT_EMAIL)' })
  async send(@Body() body: ContactDto, @Req() request: Request): Promise<MessageResponse> {
    const token = sessionTokenOf(request);
    const session = token ? await this.sessions.authenticate(token) : null;
    const message = await this.contact.send(body, clientIp(request), session?.account.uuid ?? null);
    return { success: true, message };
  }
}
