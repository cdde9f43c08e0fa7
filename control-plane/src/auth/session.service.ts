import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KeyedBatcher } from '../common/keyed-batcher';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Transaction } from '../database/transaction-runner';
import { AuthRepository, type ActiveSession } from './auth.repository';

const MAX_LOOKUPS_PER_BATCH = 500;

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

export interface SessionContext {
  ipAddress: string;
  userAgent: string | null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Server-side sessions: a random 256-bit token for the client, its SHA-256 in the database. */
@Injectable()
export class SessionService {
  private readonly lookups = new KeyedBatcher<null, ActiveSession | null>(
    (batch) => this.repository.findActiveSessions([...batch.keys()]),
    null,
    MAX_LOOKUPS_PER_BATCH,
  );

  constructor(
    private readonly repository: AuthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(
    tx: Transaction,
    accountUuid: string,
    context: SessionContext,
  ): Promise<IssuedSession> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.config.sessionTtlSeconds * 1000);
    await this.repository.insertSession(tx, {
      id: randomUUID(),
      tokenHash: hashToken(token),
      accountUuid,
      expiresAt,
      ipAddress: context.ipAddress,
      userAgent: context.userAgent,
    });
    return { token, expiresAt };
  }

  /**
   * The session of a token, read from the database on every request (a revoked session is
   * refused at once), in batches: the lookups that arrive while one is in the database go
   * together in the next (one statement for many requests under load, no delay when idle).
   */
  authenticate(token: string): Promise<ActiveSession | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return Promise.resolve(null);
    return this.lookups.submit(hashToken(token), null);
  }

  revoke(token: string): Promise<void> {
    return this.repository.revokeSession(hashToken(token));
  }
}
