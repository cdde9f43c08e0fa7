import { WALLET_ROUTES, WALLET_MESSAGES, type WalletResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

export type WalletType = 'client' | 'node';

export interface WalletPage {
  /** Older transactions than this id (the last one shown). */
  before?: string;
  signal?: AbortSignal;
}

/**
 * GET /wallet/client/{uuid} or /wallet/node/{uuid} (spec 01 §7: no-cache, with a cache-busting
 * timestamp). The server computes the balance; the portal shows it as given.
 */
export function getWallet(
  type: WalletType,
  ownerUuid: string,
  page: WalletPage = {},
): Promise<WalletResponse> {
  const path =
    type === 'client' ? WALLET_ROUTES.clientWallet(ownerUuid) : WALLET_ROUTES.nodeWallet(ownerUuid);
  const query = new URLSearchParams({ t: String(Date.now()) });
  if (page.before) query.set('before', page.before);
  return api.get<WalletResponse>(`${path}?${query.toString()}`, {
    signal: page.signal,
    fallbackMessage: WALLET_MESSAGES.fetchFailed,
  });
}
