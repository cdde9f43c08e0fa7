import { Controller, Get, HttpException, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DATABASE_RETRY_AFTER_SECONDS } from '../common/database-unavailable';
import { ClientSetNotifier } from '../client-sets/client-set.notifier';
import { DatabaseHealth } from '../database/database-health';
import { DrainCoordinator } from '../lifecycle/drain-coordinator';
import { RealtimeGateway } from '../realtime/realtime.gateway';

/** A readiness probe must answer even when the database hangs: it waits at most this long. */
const READY_CHECK_TIMEOUT_MS = 2000;

type Check = 'ok' | 'down' | 'pending' | 'unknown';

/**
 * Liveness (`/health/live`: the process answers; never touches the database, so an outage never
 * gets the process restarted) and readiness (`/health/ready`: the database answers, every
 * migration is applied, both LISTEN connections are in place; 503 otherwise, so a balancer
 * sends no traffic; 503 at once from SIGTERM on, docs/architecture.md#shutdown-and-drains). `/healthz` is kept as it was (200 when the database answers, else 503).
 */
@ApiTags('health')
@Controller()
export class HealthController {
  /** Once every migration was seen applied, it stays so for this process's lifetime. */
  private migrationsApplied = false;

  constructor(
    private readonly database: DatabaseHealth,
    private readonly clientSets: ClientSetNotifier,
    private readonly realtime: RealtimeGateway,
    private readonly drain: DrainCoordinator,
  ) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Database reachability (kept for existing probes; see /health/ready)' })
  async health(): Promise<{ success: true; status: 'ok'; database: 'ok'; uptimeSeconds: number }> {
    try {
      await this.database.ping();
    } catch {
      throw new HttpException({ message: 'Database unreachable' }, HttpStatus.SERVICE_UNAVAILABLE);
    }
    return {
      success: true,
      status: 'ok',
      database: 'ok',
      uptimeSeconds: Math.round(process.uptime()),
    };
  }

  @Get('health/live')
  @ApiOperation({ summary: 'Liveness: the process is up (no database access)' })
  live(): { success: true; status: 'ok'; uptimeSeconds: number } {
    return { success: true, status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  }

  @Get('health/ready')
  @ApiOperation({
    summary:
      'Readiness: database reachable, migrations applied, LISTEN connected, not shutting down (else 503)',
  })
  async ready(@Res({ passthrough: true }) response: Response): Promise<{
    success: boolean;
    status: 'ready' | 'not_ready';
    message?: string;
    draining?: true;
    database: Check;
    migrations: Check;
    listen: Check;
  }> {
    if (this.drain.draining) {
      // Without a look at the database: the balancer must learn of it on its very next probe.
      response.status(HttpStatus.SERVICE_UNAVAILABLE);
      return {
        success: false,
        status: 'not_ready',
        message: 'Shutting down: draining',
        draining: true,
        database: 'unknown',
        migrations: 'unknown',
        listen: 'unknown',
      };
    }
    const database = await this.databaseCheck();
    const migrations = database === 'ok' ? await this.migrationsCheck() : 'unknown';
    const listen: Check = this.clientSets.listening && this.realtime.listening ? 'ok' : 'down';
    if (database === 'ok' && migrations === 'ok' && listen === 'ok') {
      return { success: true, status: 'ready', database, migrations, listen };
    }
    // Answered here rather than thrown: a probe polled every few seconds through an outage is
    // expected, not an error worth a log line each time.
    response.status(HttpStatus.SERVICE_UNAVAILABLE);
    response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    return {
      success: false,
      status: 'not_ready',
      message: 'Not ready',
      database,
      migrations,
      listen,
    };
  }

  private async databaseCheck(): Promise<Check> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Check>((resolve) => {
      timer = setTimeout(() => resolve('down'), READY_CHECK_TIMEOUT_MS);
    });
    const query = this.database.ping().then(
      (): Check => 'ok',
      (): Check => 'down',
    );
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async migrationsCheck(): Promise<Check> {
    if (this.migrationsApplied) return 'ok';
    try {
      this.migrationsApplied = !(await this.database.migrationsPending());
    } catch {
      return 'unknown';
    }
    return this.migrationsApplied ? 'ok' : 'pending';
  }
}
