import { WALLET_MESSAGES, WALLET_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';
import type { WalletType } from './get-wallet';

/** POST /wallet/create-client-wallet or /wallet/create-node-wallet (idempotent on the server). */
export function createWallet(type: WalletType): Promise<MessageResponse> {
  return api.post<MessageResponse>(
    type === 'client' ? WALLET_ROUTES.createClientWallet : WALLET_ROUTES.createNodeWallet,
    {},
    { fallbackMessage: WALLET_MESSAGES.createFailed },
  );
}
