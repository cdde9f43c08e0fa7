import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ClientChecksumsResponse, ServerChecksumResponse } from '@scn/proto';
import { DownloadsService } from './downloads.service';

/** docs/product/calls.md#dashboard-calls: GET checksums/client (client dashboard) and checksums/server (node dashboard). */
@ApiTags('downloads')
@Controller('checksums')
export class DownloadsController {
  constructor(private readonly downloads: DownloadsService) {}

  @Get('client')
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({
    summary:
      'Recommended desktop VLESS clients per platform (windows-x64, macos-arm64, macos-intel) with their published SHA-256',
  })
  client(): ClientChecksumsResponse {
    return { success: true, data: this.downloads.clientChecksums() };
  }

  @Get('server')
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({ summary: 'SHA-256 of the agent bundle served at /downloads/scn-agent.tgz' })
  async server(): Promise<ServerChecksumResponse> {
    return { success: true, data: await this.downloads.serverChecksum() };
  }
}
