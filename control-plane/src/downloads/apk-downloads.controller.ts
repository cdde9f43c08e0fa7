import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApkMirrorService } from './apk-mirror.service';
import { DownloadsException } from './downloads.exception';

/**
 * The mirrored Android APKs (CLIENT_APK_MIRROR), at a stable URL per file name. The ETag is the
 * file's SHA-256 (the one /checksums/client reports); ranges work, so a download cut off on a
 * bad link resumes. Before the first mirror (or with the mirror off): 404 JSON.
 */
@ApiTags('downloads')
@Controller('downloads/apps')
export class ApkDownloadsController {
  constructor(private readonly mirror: ApkMirrorService) {}

  @Get(':fileName')
  @ApiOperation({
    summary:
      'A mirrored Android APK (v2rayNG, Hiddify); its SHA-256 and upstream source are in /checksums/client',
  })
  apk(@Param('fileName') fileName: string, @Res() response: Response): void {
    const found = this.mirror.fileNamed(fileName);
    if (!found) throw new DownloadsException('client_apk_not_mirrored');
    response.setHeader('Content-Type', 'application/vnd.android.package-archive');
    response.setHeader('Cache-Control', 'public, max-age=3600');
    response.setHeader('ETag', `"${found.record.sha256}"`);
    response.setHeader('Content-Disposition', `attachment; filename="${found.record.fileName}"`);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.sendFile(found.path, { etag: false, cacheControl: false, lastModified: true });
  }
}
