import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type AdminServersResponse,
  type MarkServerProcessingResponse,
  markServerProcessingRequestSchema,
  type MarketCountriesResponse,
  marketServersQuerySchema,
  type MarketStatsResponse,
  type ProcessingServersResponse,
  type ServerHealthResponse,
} from '@scn/proto';
import type { Request, Response } from 'express';
import { createZodDto } from 'nestjs-zod';
import type { ActiveSession } from '../auth/auth.repository';
import { sessionTokenOf } from '../auth/session-cookie';
import { CurrentSession, ForAccountType, SessionGuard } from '../auth/session.guard';
import { SessionService } from '../auth/session.service';
import { clientIp } from '../common/client-ip';
import { UuidParam } from '../common/uuid-param';
import { MarketException } from './market.exception';
import { MarketService } from './market.service';

export class MarketServersQueryDto extends createZodDto(marketServersQuerySchema) {}
export class MarkServerProcessingDto extends createZodDto(markServerProcessingRequestSchema) {}

const serverNotFound = () => new MarketException('server_not_found');

/** docs/product/calls.md#market-and-account-calls: the market's calls. Public reads; a session, when sent, adds per-user fields. */
@ApiTags('market')
@Controller()
export class MarketController {
  constructor(
    private readonly market: MarketService,
    private readonly sessions: SessionService,
  ) {}

  /** The session if the request carries a valid one; a missing or stale one is a visitor. */
  private async optionalSession(request: Request): Promise<ActiveSession | null> {
    const token = sessionTokenOf(request);
    return token ? this.sessions.authenticate(token) : null;
  }

  @Get('data/servers')
  @ApiOperation({
    summary:
      'Listed servers, filtered (search, country), ordered (spec 01 §9) and paged (20 by default, at most 100)',
  })
  async servers(
    @Query() query: MarketServersQueryDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const page = await this.market.servers(
      query,
      await this.optionalSession(request),
      clientIp(request),
    );
    return page.sendWith(response);
  }

  @Get('data/countries')
  @ApiOperation({ summary: 'Countries of the listed servers, with how many each' })
  countries(): Promise<MarketCountriesResponse> {
    return this.market.countries();
  }

  @Get('data/stats')
  @ApiOperation({ summary: 'Market stat tiles: servers, countries, average reliability and ping' })
  async stats(): Promise<MarketStatsResponse> {
    return { success: true, stats: await this.market.stats() };
  }

  @Get('data/processing-servers')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: "The session's servers in their 60 s connect cooldown (polled every second)",
  })
  async processingServers(@Req() request: Request): Promise<ProcessingServersResponse> {
    return this.market.processing(await this.optionalSession(request));
  }

  @Post('data/mark-server-processing')
  @ForAccountType('client', () => new MarketException('clients_only'))
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Starts the 60 s connect cooldown of a server for the session’s client (admin servers exempt)',
  })
  markServerProcessing(
    @Body() body: MarkServerProcessingDto,
    @CurrentSession() session: ActiveSession,
  ): Promise<MarkServerProcessingResponse> {
    return this.market.markProcessing(session, body.serverId, body.clientUUID);
  }

  @Get('data/servers/:id/health')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Uptime (hours), reliability and latency of one server' })
  health(@UuidParam('id', serverNotFound) id: string): Promise<ServerHealthResponse> {
    return this.market.health(id);
  }

  @Get('admin-servers')
  @UseGuards(SessionGuard)
  @ApiOperation({ summary: 'Premium (admin) servers and their free slots' })
  adminServers(): Promise<AdminServersResponse> {
    return this.market.adminServers();
  }
}
