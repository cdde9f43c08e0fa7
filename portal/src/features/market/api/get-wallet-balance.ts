import { WALLET_MESSAGES, WALLET_ROUTES, toMicro, type WalletResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * The client's balance in micro-SSL for the Payment Confirmation (docs/product/calls.md#market-and-account-calls `GET
 * /wallet/client/{uuid}`, no-cache: a timestamp makes every read fresh).
 */
export async function getWalletBalance(clientUuid: string, signal?: AbortSignal): Promise<bigint> {
  const params = new URLSearchParams({ limit: '1', t: String(Date.now()) });
  const { data } = await api.get<WalletResponse>(
    `${WALLET_ROUTES.clientWallet(clientUuid)}?${params.toString()}`,
    { signal, fallbackMessage: WALLET_MESSAGES.fetchFailed },
  );
  return toMicro(data.balanceMicro);
}
