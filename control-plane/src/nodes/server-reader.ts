import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { ServerEntity } from './entities/server.entity';
import { serverFromRow } from './nodes.repository';

const MAX_BATCH = 1000;

/**
 * Reads servers for agent calls in batches: the lookups that arrive while the previous batch is
 * in the database become one `SELECT ... WHERE id = ANY(...)`. Always a fresh read (no cache), so replicas and jobs that
 * changed a server are seen; only the round trips are shared.
 */
@Injectable()
export class ServerReader {
  private pending = new Map<
    string,
    Array<{ resolve: (server: ServerEntity | null) => void; reject: (e: unknown) => void }>
  >();
  private inFlight = false;
  private scheduled = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  read(id: string): Promise<ServerEntity | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(id, [{ resolve, reject }]);
      this.schedule();
    });
  }

  /**
   * Group commit: with no batch in the database, the next one goes at the end of this tick;
   * otherwise what arrives waits for the running batch and goes with the next. Low load gets
   * no added latency, high load gets large batches.
   */
  private schedule(): void {
    if (this.inFlight && this.pending.size < MAX_BATCH) return;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    if (batch.size === 0) return;
    this.pending = new Map();
    this.inFlight = true;
    try {
      const rows = await queryRows<Record<string, unknown>>(
        this.dataSource,
        'SELECT * FROM servers WHERE id = ANY($1::uuid[])',
        [[...batch.keys()]],
      );
      const byId = new Map(rows.map((row) => [String(row.id), serverFromRow(row)]));
      for (const [id, waiters] of batch) waiters.forEach((w) => w.resolve(byId.get(id) ?? null));
    } catch (error) {
      for (const waiters of batch.values()) waiters.forEach((w) => w.reject(error));
    } finally {
      this.inFlight = false;
      if (this.pending.size > 0) this.schedule();
    }
  }
}
