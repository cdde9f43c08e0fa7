import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ClientSetNotifier } from '../client-sets/client-set.notifier';
import { DatabasePool } from '../database/database-pool';
import { JOB_STATS, type JobStatsSource } from '../jobs/job-stats';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { MetricsRegistry } from './metrics-registry';

/**
 * The series of this process's parts that have no domain of their own: the database pool, the
 * two LISTEN connections, the browsers' sockets and the periodic jobs. Read at each scrape.
 */
@Injectable()
export class RuntimeMetrics implements OnApplicationBootstrap {
  private jobs: JobStatsSource | null = null;

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly pool: DatabasePool,
    private readonly clientSets: ClientSetNotifier,
    private readonly realtime: RealtimeGateway,
    private readonly moduleRef: ModuleRef,
  ) {
    this.poolMetrics();
    metrics.gauge({
      name: 'scn_pg_listen_connected',
      help: 'Whether LISTEN is in place on its held connection (1) or being re-established (0), by channel',
      labelNames: ['channel'],
      collect() {
        this.set({ channel: 'client_sets' }, clientSets.listening ? 1 : 0);
        this.set({ channel: 'realtime' }, realtime.listening ? 1 : 0);
      },
    });
    metrics.gauge({
      name: 'scn_realtime_clients',
      help: 'socket.io clients connected to this replica',
      collect() {
        this.set(realtime.connectedClients);
      },
    });
    this.jobMetrics();
  }

  /**
   * The job scaffold's JOB_STATS, wherever it is provided (looked up in the whole application,
   * not only the modules this one imports); without it the job series are absent.
   */
  onApplicationBootstrap(): void {
    try {
      this.jobs = this.moduleRef.get<JobStatsSource>(JOB_STATS, { strict: false });
    } catch {
      this.jobs = null;
    }
  }

  private poolMetrics(): void {
    const pool = this.pool;
    const gauge = (name: string, help: string, read: () => number) =>
      this.metrics.gauge({
        name,
        help,
        collect() {
          this.set(read());
        },
      });
    gauge(
      'scn_db_pool_connections',
      'Connections the pool holds open (in use, idle, LISTEN)',
      () => pool.stats().total,
    );
    gauge(
      'scn_db_pool_idle_connections',
      'Open connections of the pool not in use',
      () => pool.stats().idle,
    );
    gauge(
      'scn_db_pool_waiting',
      'Callers waiting for a free connection of the pool',
      () => pool.stats().waiting,
    );
    gauge(
      'scn_db_pool_max_connections',
      'The most connections the pool opens',
      () => pool.stats().max,
    );
    const acquire = this.metrics.histogram({
      name: 'scn_db_pool_acquire_seconds',
      help: 'Waits for a connection of the pool (a free one, or a new one), by outcome',
      labelNames: ['outcome'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10],
    });
    pool.onAcquire((seconds, outcome) => acquire.observe({ outcome }, seconds));
  }

  /** Labelled `job_name`: Prometheus gives every scraped series a `job` label of its own. */
  private jobMetrics(): void {
    const stats = () => this.jobs?.jobStats() ?? Promise.resolve([]);
    const cached = this.metrics.cached('jobs', stats, 5_000);
    this.metrics.counter({
      name: 'scn_job_runs_total',
      help: 'Runs of each periodic job this replica started, by outcome (ok, failed; skipped: another replica had the period)',
      labelNames: ['job_name', 'outcome'],
      async collect() {
        this.reset();
        for (const job of (await cached.get()) ?? []) {
          this.inc({ job_name: job.name, outcome: 'ok' }, job.runs.ok);
          this.inc({ job_name: job.name, outcome: 'failed' }, job.runs.failed);
          this.inc({ job_name: job.name, outcome: 'skipped' }, job.skipped);
        }
      },
    });
    this.metrics.gauge({
      name: 'scn_job_last_duration_seconds',
      help: "Duration of this replica's last finished run of each periodic job",
      labelNames: ['job_name'],
      async collect() {
        this.reset();
        for (const job of (await cached.get()) ?? []) {
          if (job.lastDurationSeconds !== null)
            this.set({ job_name: job.name }, job.lastDurationSeconds);
        }
      },
    });
    this.metrics.gauge({
      name: 'scn_job_last_success_timestamp_seconds',
      help: 'When each periodic job last succeeded, on any replica (Unix time); absent before its first success',
      labelNames: ['job_name'],
      async collect() {
        this.reset();
        for (const job of (await cached.get()) ?? []) {
          if (job.lastSuccessAt !== null)
            this.set({ job_name: job.name }, job.lastSuccessAt.getTime() / 1000);
        }
      },
    });
    this.metrics.gauge({
      name: 'scn_job_interval_seconds',
      help: 'How often each periodic job is due',
      labelNames: ['job_name'],
      async collect() {
        this.reset();
        for (const job of (await cached.get()) ?? [])
          this.set({ job_name: job.name }, job.intervalMs / 1000);
      },
    });
  }
}
