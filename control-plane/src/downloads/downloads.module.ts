import { Module } from '@nestjs/common';
import clientApps from './client-apps.json';
import { DownloadsController } from './downloads.controller';
import { CLIENT_APPS_MANIFEST, DownloadsService } from './downloads.service';

/** Checksums of what users download: the recommended client apps and the agent bundle. */
@Module({
  controllers: [DownloadsController],
  providers: [DownloadsService, { provide: CLIENT_APPS_MANIFEST, useValue: clientApps }],
})
export class DownloadsModule {}
