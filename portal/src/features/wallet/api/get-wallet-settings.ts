import { WALLET_MESSAGES, WALLET_ROUTES, type WalletSettingsResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /wallet/settings: prices and whether deposits and withdrawals are open. */
export function getWalletSettings(): Promise<WalletSettingsResponse> {
  return api.get<WalletSettingsResponse>(WALLET_ROUTES.settings, {
    fallbackMessage: WALLET_MESSAGES.settingsFailed,
  });
}
