import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { ServerEntity } from './entities/server.entity';
import { serverFromRow } from './nodes.repository';

const GATHER_MS = 2;
const MAX_BATCH = 1000;

/**
 * Reads servers for agent calls in batches: the lookups that arrive within 2 ms become one
 * `SELECT ... WHERE id = ANY(...)`. Always a fresh read (no cache), so replicas and jobs that
 * changed a server are seen; only the round trips are shared.
 */
@Injectable()
export class ServerReader {
  private pending = new Map<
    string,
    Array<{ resolve: (server: ServerEntity | null) => void; reject: (e: unknown) => void }>
  >();
  private timer: NodeJS.Timeout | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  read(id: string): Promise<ServerEntity | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(id, [{ resolve, reject }]);
      if (this.pending.size >= MAX_BATCH) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), GATHER_MS);
    });
  }

  private async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    if (batch.size === 0) return;
    this.pending = new Map();
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
    }
  }
}
