import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type DepositRequest, lamportsToSol, solToLamports } from '@scn/proto';
import { Keypair } from '@solana/web3.js';
import type { ActiveSession } from '../auth/auth.repository';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { SolanaSettings } from '../config/solana-settings';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RATE_LIMITS } from '../rate-limit/rate-limit.rules';
import { creditMicro, transferRequestUrl } from './deposit-rules';
import { DepositsException } from './deposits.exception';
import { type DepositRequestRow, DepositsRepository } from './deposits.repository';
import { QUOTE_GRACE_MS } from './transfer-check';

/** The wallet a deposit of the account goes to (node operators' node wallet). */
export function walletOf(session: ActiveSession): 'client_wallet' | 'node_wallet' {
  return session.account.userType === 'node' ? 'node_wallet' : 'client_wallet';
}

/** Whether an open request is past its quote and the grace. */
export function isExpired(request: DepositRequestRow, now: Date): boolean {
  return request.status === 'open' && now.getTime() > request.expiresAt.getTime() + QUOTE_GRACE_MS;
}

/** Deposit requests: the amount and the quote fixed, a fresh Solana Pay reference. */
@Injectable()
export class DepositRequestsService {
  constructor(
    private readonly repository: DepositsRepository,
    private readonly rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The settings, or 503 initFailed when deposits are off. */
  settings(): SolanaSettings {
    if (!this.config.solana) throw new DepositsException('deposits_off');
    return this.config.solana;
  }

  async create(
    session: ActiveSession,
    body: { solAmount: string; userAddress: string },
  ): Promise<DepositRequest> {
    const settings = this.settings();
    const lamports = solToLamports(body.solAmount);
    const credit = creditMicro(lamports, settings.sslPerSol);
    if (credit === 0n) throw new DepositsException('amount_too_small');
    await this.rateLimits.consume(RATE_LIMITS.depositRequest(session.account.uuid));
    const now = this.clock.now();
    const row: DepositRequestRow = {
      id: randomUUID(),
      ownerUuid: session.account.uuid,
      walletKind: walletOf(session),
      userAddress: body.userAddress,
      // Only the public half matters: it marks the transfer, it never signs anything.
      reference: Keypair.generate().publicKey.toBase58(),
      lamports,
      sslPerSol: settings.sslPerSol,
      creditMicro: credit,
      status: 'open',
      signature: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + settings.quoteTtlSeconds * 1000),
      creditedAt: null,
    };
    await this.repository.insertRequest(row);
    return this.view(row);
  }

  /** The session's own request; another account's is not found (404). */
  async get(session: ActiveSession, id: string): Promise<DepositRequestRow> {
    this.settings();
    const request = await this.repository.findOwned(session.account.uuid, id);
    if (!request) throw new DepositsException('request_not_found');
    return request;
  }

  view(row: DepositRequestRow): DepositRequest {
    const { depositAddress } = this.settings();
    return {
      id: row.id,
      status: isExpired(row, this.clock.now()) ? 'expired' : row.status,
      walletType: row.walletKind,
      depositAddress,
      userAddress: row.userAddress,
      reference: row.reference,
      solAmount: lamportsToSol(row.lamports),
      lamports: row.lamports.toString(),
      conversionRate: row.sslPerSol,
      sslCreditMicro: row.creditMicro.toString(),
      transferUrl: transferRequestUrl({
        depositAddress,
        lamports: row.lamports,
        reference: row.reference,
      }),
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      signature: row.signature,
      creditedAt: row.creditedAt?.toISOString() ?? null,
    };
  }
}
