import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { ApkMirrorService } from './apk-mirror.service';

/**
 * With CLIENT_APK_MIRROR on: mirrors the client apps' APKs when the control plane starts and
 * every 6 hours (releases are pinned in client-apps.json and arrive with a deploy; a conditional
 * request each time: an unchanged upstream costs one 304). Each replica keeps its own copies in
 * its DATA_DIR, so every replica runs it (a replica-scoped job: no lock, no record of runs).
 */
@Injectable()
export class ApkMirrorJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly mirror: ApkMirrorService,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.mirror.enabled) return;
    this.job = this.scheduler.start(JOBS.apkMirror, () => this.mirror.mirrorAll());
    void this.job.runNow();
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }
}
