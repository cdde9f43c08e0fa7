import { Module } from '@nestjs/common';
import { AGENT_BUNDLE_PATH } from '../enrollment/installer.controller';
import clientApps from './client-apps.json';
import { DownloadsController } from './downloads.controller';
import { AGENT_BUNDLE_FILE, CLIENT_APPS_MANIFEST, DownloadsService } from './downloads.service';

/** Checksums of what users download: the recommended client apps and the agent bundle. */
@Module({
  controllers: [DownloadsController],
  providers: [
    DownloadsService,
    { provide: AGENT_BUNDLE_FILE, useValue: AGENT_BUNDLE_PATH },
    { provide: CLIENT_APPS_MANIFEST, useValue: clientApps },
  ],
})
export class DownloadsModule {}
