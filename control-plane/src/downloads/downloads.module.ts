import { Module } from '@nestjs/common';
import { ApkDownloadsController } from './apk-downloads.controller';
import { ApkMirrorJob } from './apk-mirror.job';
import {
  APK_FETCH_LIMITS,
  ApkMirrorService,
  CLIENT_APPS,
  DEFAULT_FETCH_LIMITS,
} from './apk-mirror.service';
import clientApps from './client-apps.json';
import { DownloadsController } from './downloads.controller';
import { CLIENT_APPS_MANIFEST, DownloadsService, parseClientApps } from './downloads.service';

/**
 * Checksums of what users download (the recommended client apps and the agent bundle), and the
 * mirror of the client apps' Android APKs (CLIENT_APK_MIRROR).
 */
@Module({
  controllers: [DownloadsController, ApkDownloadsController],
  providers: [
    DownloadsService,
    ApkMirrorService,
    ApkMirrorJob,
    { provide: CLIENT_APPS_MANIFEST, useValue: clientApps },
    { provide: CLIENT_APPS, useFactory: () => parseClientApps(clientApps) },
    { provide: APK_FETCH_LIMITS, useValue: DEFAULT_FETCH_LIMITS },
  ],
})
export class DownloadsModule {}
