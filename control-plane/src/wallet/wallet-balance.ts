/** Part of an account's balance still frozen until `frozenUntil` (docs/product/records.md#dashboard-records). */
export interface FrozenLot {
  amountMicro: bigint;
  frozenUntil: Date;
}

/**
 * The wallet's one definition of "available balance" (docs/product/constants.md#market-prices-and-limits: operator rewards are frozen 60
 * days): the balance less its frozen lots. A frozen reward may already be partly spent (on
 * promotions, or taken back by a refund), so the frozen part never counts for more than the
 * balance and the available part is never negative.
 */
export function availableBalance(
  balanceMicro: bigint,
  lots: readonly FrozenLot[],
): { frozenMicro: bigint; availableMicro: bigint } {
  const frozen = lots.reduce((sum, lot) => sum + lot.amountMicro, 0n);
  const frozenMicro = frozen > balanceMicro ? balanceMicro : frozen;
  return { frozenMicro, availableMicro: balanceMicro - frozenMicro };
}
