import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import { ApkMirrorService } from './apk-mirror.service';

/** Releases are pinned in client-apps.json; a new one arrives with a deploy, so 6 hours is plenty. */
export const APK_MIRROR_INTERVAL_MS = 6 * 3_600_000;

/**
 * With CLIENT_APK_MIRROR on: mirrors the client apps' APKs when the control plane starts and
 * every 6 hours (a conditional request each time: an unchanged upstream costs one 304). Each
 * replica keeps its own copies in its DATA_DIR, so no lock is needed.
 */
@Injectable()
export class ApkMirrorJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly every = new PeriodicJob(
    'APK mirror',
    APK_MIRROR_INTERVAL_MS,
    () => this.mirror.mirrorAll(),
    new Logger('ApkMirrorJob'),
  );

  constructor(private readonly mirror: ApkMirrorService) {}

  onApplicationBootstrap(): void {
    if (!this.mirror.enabled) return;
    this.every.start();
    this.every.runSoon();
  }

  onApplicationShutdown(): void {
    this.every.stop();
  }
}
