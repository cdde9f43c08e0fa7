import {
  DEPOSIT_MESSAGES,
  DEPOSIT_ROUTES,
  type CreateDepositRequest,
  type DepositAddressResponse,
  type DepositRequestResponse,
  type DepositTransfersResponse,
  type SolanaConfig,
  type VerifyDepositRequest,
  type VerifyDepositResponse,
} from '@scn/proto';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { WalletType } from './get-wallet';
import { DEMO_WALLET_FAILED, DEMO_WALLET_UNREACHABLE } from '../wallet-messages';

/** GET /api/solana/config: deposit address, quote, cluster, explorer and (localnet) demo wallet. */
export function getSolanaConfig(): Promise<SolanaConfig> {
  return api.get<SolanaConfig>(DEPOSIT_ROUTES.apiConfig, {
    fallbackMessage: DEPOSIT_MESSAGES.initFailed,
  });
}

/**
 * /api/solana/config, read once when first needed and kept (docs/product/messages.md#market-and-account-messages: its failure is 'Failed to
 * initialize payment system'); a reader after a failure tries again.
 */
export const solanaConfigQuery = queryOptions({
  queryKey: ['solana-config'] as const,
  queryFn: getSolanaConfig,
  staleTime: Infinity,
});

export interface SolanaConfigView {
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: SolanaConfig | null;
  retry: () => void;
}

/** The config; read when `load` is true, else only what an earlier reader brought. */
export function useSolanaConfig(load = false): SolanaConfigView {
  const query = useQuery({ ...solanaConfigQuery, enabled: load });
  const { data, refetch } = query;
  return {
    status:
      data !== undefined
        ? 'ready'
        : query.isError
          ? 'error'
          : query.isFetching || (load && query.isPending)
            ? 'loading'
            : 'idle',
    data: data ?? null,
    retry: () => void refetch(),
  };
}

/** POST /api/solana/deposit-requests: the server fixes the amount, quote and reference. */
export function createDepositRequest(body: CreateDepositRequest): Promise<DepositRequestResponse> {
  return api.post<DepositRequestResponse>(DEPOSIT_ROUTES.requests, body, {
    fallbackMessage: DEPOSIT_MESSAGES.initFailed,
  });
}

export function getDepositRequest(id: string): Promise<DepositRequestResponse> {
  return api.get<DepositRequestResponse>(DEPOSIT_ROUTES.request(id), {
    fallbackMessage: DEPOSIT_MESSAGES.verifyFailed,
  });
}

/**
 * POST /api/solana/verify-deposit. A refusal may come back as `success: false` with a message
 * (the api client throws it) or as `verified: false`: the caller shows either.
 */
export function verifyDeposit(body: VerifyDepositRequest): Promise<VerifyDepositResponse> {
  return api.post<VerifyDepositResponse>(DEPOSIT_ROUTES.verify, body, {
    fallbackMessage: DEPOSIT_MESSAGES.verifyFailed,
  });
}

/** POSTs `{ url }` to one address of the demo wallet. */
async function postTransfer(address: string, transferUrl: string): Promise<Response> {
  try {
    return await fetch(address, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ url: transferUrl }),
    });
  } catch {
    throw new Error(DEMO_WALLET_FAILED);
  }
}

/**
 * localnet only: the local chain's demo wallet pays a `solana:` transfer-request URL from its
 * own keypair (another origin: no credentials), POSTed to `<demoWalletUrl>/pay` (the contract's
 * `demoWalletUrl`). Resolves with the transaction's signature.
 */
export async function payWithDemoWallet(
  demoWalletUrl: string,
  transferUrl: string,
): Promise<string> {
  const response = await postTransfer(`${demoWalletUrl.replace(/\/+$/, '')}/pay`, transferUrl);
  const payload = (await response.json().catch(() => null)) as {
    signature?: unknown;
    message?: unknown;
    error?: unknown;
  } | null;
  if (!response.ok || typeof payload?.signature !== 'string') {
    const reason = payload?.message ?? payload?.error;
    throw new Error(typeof reason === 'string' && reason ? reason : DEMO_WALLET_FAILED);
  }
  return payload.signature;
}

/** localnet only: the demo wallet's own address (GET `{ address, balanceLamports }`). */
export async function getDemoWalletAddress(demoWalletUrl: string): Promise<string> {
  try {
    const response = await fetch(demoWalletUrl, { headers: { Accept: 'application/json' } });
    const payload = (await response.json()) as { address?: unknown };
    if (response.ok && typeof payload.address === 'string') return payload.address;
  } catch {
    // answered below
  }
  throw new Error(DEMO_WALLET_UNREACHABLE);
}

/**
 * GET /api/solana/deposit-address: the account wallet's own address and what it
 * accepts. Rejects with the code `deposits.addresses_off` when the server derives no addresses.
 */
export function getDepositAddress(wallet: WalletType): Promise<DepositAddressResponse> {
  return api.get<DepositAddressResponse>(`${DEPOSIT_ROUTES.depositAddress}?wallet=${wallet}`, {
    fallbackMessage: DEPOSIT_MESSAGES.initFailed,
  });
}

/** GET /api/solana/deposit-address/transfers: the transfers to it, newest first, and what waits. */
export function getDepositTransfers(
  wallet: WalletType,
  limit = 50,
): Promise<DepositTransfersResponse> {
  return api.get<DepositTransfersResponse>(
    `${DEPOSIT_ROUTES.depositTransfers}?wallet=${wallet}&limit=${limit}`,
    { fallbackMessage: DEPOSIT_MESSAGES.initFailed },
  );
}
