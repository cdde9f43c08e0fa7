import { Inject, Injectable } from '@nestjs/common';
import type {
  DepositTransfersResponse,
  DepositTransferView,
  VerifyAddressDepositResponse,
} from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RATE_LIMITS } from '../rate-limit/rate-limit.rules';
import { ADDRESS_CHAIN, type AddressChain } from './address-chain';
import { AddressDepositsService } from './address-deposits.service';
import { DepositAddressService } from './deposit-address.service';
import { CURRENCY_DECIMALS, minimumOf, unitsText } from './deposit-currencies';
import { DepositTransfersRepository, type TransferRow } from './deposit-transfers.repository';
import { DepositsException } from './deposits.exception';

const DEFAULT_LIMIT = 50;

export function transferView(row: TransferRow): DepositTransferView {
  return {
    id: row.id,
    signature: row.signature,
    currency: row.currency,
    mint: row.asset === 'SOL' ? null : row.asset,
    baseUnits: row.baseUnits.toString(),
    amount: unitsText(row.baseUnits, row.decimals),
    status: row.status,
    refusedReason: row.refusedReason,
    sslPerUnitMicro: row.sslPerUnitMicro?.toString() ?? null,
    creditMicro: row.creditMicro?.toString() ?? null,
    seenAt: row.seenAt.toISOString(),
    creditedAt: row.creditedAt?.toISOString() ?? null,
  };
}

/** The deposit-address routes: the session's own transfers, and verify by signature. */
@Injectable()
export class AddressDepositViewsService {
  constructor(
    private readonly addresses: DepositAddressService,
    private readonly repository: DepositTransfersRepository,
    private readonly deposits: AddressDepositsService,
    private readonly rateLimits: RateLimitService,
    @Inject(ADDRESS_CHAIN) private readonly chain: AddressChain,
  ) {}

  async transfers(
    session: ActiveSession,
    query: { wallet?: 'client' | 'node'; limit?: number },
  ): Promise<DepositTransfersResponse> {
    const own = await this.addresses.ownAddress(session, query.wallet);
    const settings = this.deposits.settings!;
    const [rows, waiting] = await Promise.all([
      this.repository.history(own.ownerUuid, own.walletKind, query.limit ?? DEFAULT_LIMIT),
      this.repository.waitingTotals(own.ownerUuid, own.walletKind),
    ]);
    return {
      success: true,
      address: own.address,
      transfers: rows.map(transferView),
      pending: waiting.map(({ currency, baseUnits }) => {
        const minimum = minimumOf(currency, settings);
        const decimals = CURRENCY_DECIMALS[currency];
        return {
          currency,
          baseUnits: baseUnits.toString(),
          amount: unitsText(baseUnits, decimals),
          minimumBaseUnits: minimum.toString(),
          minimum: unitsText(minimum, decimals),
        };
      }),
    };
  }

  /**
   * Looks at one transaction now (the watcher would find it within seconds; an impatient user
   * or a support agent need not wait): its transfers to any deposit address are recorded, each
   * for its own address's account, and credited when final. Answers the session's own ones;
   * a transaction that paid none of them is wrong_recipient, whoever it paid.
   */
  async verify(
    session: ActiveSession,
    body: { signature: string; wallet?: 'client' | 'node' },
  ): Promise<VerifyAddressDepositResponse> {
    const own = await this.addresses.ownAddress(session, body.wallet);
    // The same budget as verify-deposit: each call asks the RPC twice.
    await this.rateLimits.consume(RATE_LIMITS.depositVerify(session.account.uuid));
    const found = await this.chain.transaction(body.signature).catch(() => {
      throw new DepositsException('chain_unavailable');
    });
    if (!found) throw new DepositsException('transaction_not_found');
    if (found.tx.failed || found.state.failed) throw new DepositsException('failed_transaction');
    await this.deposits.record([found.tx], () => found.state);
    const mine = await this.repository.bySignature(body.signature, own.address);
    if (mine.length === 0) throw new DepositsException('wrong_recipient');
    return { success: true, transfers: mine.map(transferView) };
  }
}
