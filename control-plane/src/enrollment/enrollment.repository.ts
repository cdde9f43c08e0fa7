import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import { EnrollmentTokenEntity } from './entities/enrollment-token.entity';

/** What naming a new server needs of its owner (server-name.ts). */
export interface EnrollingOwner {
  email: string;
  servers: number;
}

/** The only DB access for enrollment tokens (the server row itself: NodesRepository). */
@Injectable()
export class EnrollmentRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insertEnrollmentToken(
    token: Omit<EnrollmentTokenEntity, 'createdAt' | 'owner' | 'usedAt' | 'serverId'>,
  ): Promise<void> {
    await this.dataSource
      .getRepository(EnrollmentTokenEntity)
      .insert({ ...token, usedAt: null, serverId: null });
  }

  /** Marks the token used, inside the caller's transaction; null if unknown, used or expired. */
  async consumeEnrollmentToken(
    tx: Transaction,
    tokenHash: string,
    now: Date,
  ): Promise<EnrollmentTokenEntity | null> {
    const rows = await queryRows<{
      id: string;
      owner_uuid: string;
      tier: EnrollmentTokenEntity['tier'];
      server_name: string | null;
    }>(
      tx,
      `UPDATE enrollment_tokens SET used_at = $2
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING id, owner_uuid, tier, server_name`,
      [tokenHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      ownerUuid: row.owner_uuid,
      tier: row.tier,
      serverName: row.server_name,
    } as EnrollmentTokenEntity;
  }

  async linkTokenToServer(tx: Transaction, tokenId: string, serverId: string): Promise<void> {
    await tx.getRepository(EnrollmentTokenEntity).update({ id: tokenId }, { serverId });
  }

  /** The owner's email and how many servers they have, inside the caller's transaction. */
  async ownerOf(tx: Transaction, ownerUuid: string): Promise<EnrollingOwner | null> {
    const [owner] = await queryRows<EnrollingOwner>(
      tx,
      `SELECT a.email, (SELECT count(*)::int FROM server_directory s WHERE s.owner_uuid = a.uuid) AS servers
       FROM account_directory a WHERE a.uuid = $1`,
      [ownerUuid],
    );
    return owner ?? null;
  }
}
