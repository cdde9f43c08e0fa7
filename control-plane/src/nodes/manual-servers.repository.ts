import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import { ServerEntity } from './entities/server.entity';
import { serverFromRow } from './nodes.repository';

/** What one VLESS check of a manual server writes. */
export type CheckColumns = Partial<
  Pick<
    ServerEntity,
    | 'reliabilityAtReport'
    | 'lastReportAt'
    | 'lastCreditedAt'
    | 'belowThresholdSince'
    | 'bannedAt'
    | 'pingMs'
    | 'checkedAt'
    | 'checkError'
  >
>;

/** The only DB access for servers added without the agent (Add New Server). */
@Injectable()
export class ManualServersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** How many servers without the agent the operator has (any state). */
  countOwned(ownerUuid: string): Promise<number> {
    return this.countOwnedIn(this.dataSource, ownerUuid);
  }

  private async countOwnedIn(
    manager: Transaction | DataSource,
    ownerUuid: string,
  ): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      manager,
      `SELECT count(*)::int AS n FROM servers WHERE owner_uuid = $1 AND source = 'manual'`,
      [ownerUuid],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Inserts the server if the operator is still under `limit` (counted under a lock on the
   * account row, so concurrent uploads cannot both take the last place). False when over.
   */
  async insertWithinLimit(
    server: Partial<ServerEntity> & Pick<ServerEntity, 'id' | 'ownerUuid' | 'name' | 'source'>,
    limit: number,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM account_directory WHERE uuid = $1 FOR UPDATE`, [
        server.ownerUuid,
      ]);
      if ((await this.countOwnedIn(manager, server.ownerUuid)) >= limit) return false;
      await manager.getRepository(ServerEntity).insert(server);
      return true;
    });
  }

  /** Manual servers not banned: the sweep checks them every minute. */
  async listForCheck(): Promise<ServerEntity[]> {
    const rows = await queryRows<Record<string, unknown>>(
      this.dataSource,
      `SELECT * FROM servers WHERE source = 'manual' AND banned_at IS NULL ORDER BY id`,
    );
    return rows.map(serverFromRow);
  }

  /**
   * Writes one check's outcome: only these columns, so a rename meanwhile is kept; a server
   * deleted meanwhile is simply not written. (The sweep runs on one replica at a time.)
   */
  async writeCheck(serverId: string, columns: CheckColumns): Promise<void> {
    await this.dataSource.getRepository(ServerEntity).update({ id: serverId }, columns);
  }
}
