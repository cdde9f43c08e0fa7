import { Global, Module } from '@nestjs/common';
import { JobRunsRepository } from './job-runs.repository';
import { JobScheduler } from './job-scheduler';
import { JOB_STATS } from './job-stats';

/**
 * The periodic jobs' scaffold for every domain (`JobScheduler`), and its figures for the metrics
 * (`JOB_STATS`).
 */
@Global()
@Module({
  providers: [JobRunsRepository, JobScheduler, { provide: JOB_STATS, useExisting: JobScheduler }],
  exports: [JobScheduler, JOB_STATS],
})
export class JobsModule {}
