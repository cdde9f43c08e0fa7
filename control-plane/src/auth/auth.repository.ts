import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { UserType } from '@scn/proto';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountEntity } from '../accounts/entities/account.entity';
import { queryRows } from '../common/sql';
import { SessionEntity } from './entities/session.entity';
import type { CodePurpose } from './entities/verification-code.entity';

export interface CodeAttempt {
  id: string;
  codeHash: string;
  attempts: number;
  expired: boolean;
}

export interface ActiveSession {
  id: string;
  expiresAt: Date;
  account: AccountEntity;
}

/** The only DB access for sessions and e-mailed codes. */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a new code for the target; an older code for the same target and purpose is replaced. */
  async upsertCode(
    target: { email: string; userType: UserType; purpose: CodePurpose },
    codeHash: string,
    ttlSeconds: number,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO verification_codes (email, user_type, purpose, code_hash, attempts, expires_at)
       VALUES ($1, $2, $3, $4, 0, now() + make_interval(secs => $5))
       ON CONFLICT ON CONSTRAINT uq_verification_codes_target
       DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0, expires_at = EXCLUDED.expires_at, created_at = now()`,
      [target.email, target.userType, target.purpose, codeHash, ttlSeconds],
    );
  }

  /**
   * Counts one attempt against the target's code and returns it. The count is committed on its
   * own, before the code is compared, so parallel guesses cannot exceed the attempt limit.
   */
  async recordCodeAttempt(target: {
    email: string;
    userType: UserType;
    purpose: CodePurpose;
  }): Promise<CodeAttempt | null> {
    const rows = await queryRows<{
      id: string;
      code_hash: string;
      attempts: number;
      expired: boolean;
    }>(
      this.dataSource,
      `UPDATE verification_codes SET attempts = attempts + 1
       WHERE email = $1 AND user_type = $2 AND purpose = $3
       RETURNING id, code_hash, attempts, expires_at <= now() AS expired`,
      [target.email, target.userType, target.purpose],
    );
    const row = rows[0];
    return row
      ? {
          id: String(row.id),
          codeHash: row.code_hash,
          attempts: row.attempts,
          expired: row.expired,
        }
      : null;
  }

  /** Consumes the code inside the caller's transaction; false if another request consumed it first. */
  async deleteCode(manager: EntityManager, id: string, codeHash: string): Promise<boolean> {
    const rows = await queryRows(
      manager,
      `DELETE FROM verification_codes WHERE id = $1 AND code_hash = $2 RETURNING id`,
      [id, codeHash],
    );
    return rows.length === 1;
  }

  async insertSession(
    manager: EntityManager,
    session: Pick<
      SessionEntity,
      'id' | 'tokenHash' | 'accountUuid' | 'expiresAt' | 'ipAddress' | 'userAgent'
    >,
  ): Promise<void> {
    await manager.getRepository(SessionEntity).insert(session);
  }

  /** The unrevoked, unexpired sessions among these token hashes, with their accounts. */
  async findActiveSessions(tokenHashes: readonly string[]): Promise<Map<string, ActiveSession>> {
    const sessions = await this.dataSource
      .getRepository(SessionEntity)
      .createQueryBuilder('s')
      .innerJoinAndSelect('s.account', 'a')
      .where('s.token_hash IN (:...tokenHashes)', { tokenHashes })
      .andWhere('s.revoked_at IS NULL')
      .andWhere('s.expires_at > now()')
      .getMany();
    const found = new Map<string, ActiveSession>();
    for (const session of sessions) {
      if (!session.account) continue;
      found.set(session.tokenHash, {
        id: session.id,
        expiresAt: session.expiresAt,
        account: session.account,
      });
    }
    return found;
  }

  async revokeSession(tokenHash: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL`,
      [tokenHash],
    );
  }

  async revokeAllSessions(manager: EntityManager, accountUuid: string): Promise<void> {
    await manager.query(
      `UPDATE sessions SET revoked_at = now() WHERE account_uuid = $1 AND revoked_at IS NULL`,
      [accountUuid],
    );
  }
}
