import type { DepositAddressResponse, DepositTransfersResponse } from '@scn/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { onRealtime } from '../../../lib/realtime';
import { getDepositAddress, getDepositTransfers } from '../api/solana';
import type { WalletType } from '../api/get-wallet';

/** While the address view is open, its transfers are looked at this often besides realtime. */
export const ADDRESS_POLL_MS = 5000;

/** The server derives no per-account addresses (no seed): the Solana Pay flow stands alone. */
export const ADDRESSES_OFF = 'deposits.addresses_off';

export type AddressStatus = 'loading' | 'ready' | 'off' | 'error';

/**
 * The account's own deposit address and its transfers, refreshed when the server
 * announces a transfer seen or credited ('wallet-updated') and, when `pollMs` is given, on a slow
 * timer too (a missed socket event never strands the view). Not `enabled` (the Solana config
 * says the server has no addresses, or is not read yet): nothing is asked, the status is 'off'.
 */
export function useAddressDeposit(type: WalletType, enabled: boolean, pollMs: number | null) {
  const [status, setStatus] = useState<AddressStatus>('loading');
  const [address, setAddress] = useState<DepositAddressResponse | null>(null);
  const [transfers, setTransfers] = useState<DepositTransfersResponse | null>(null);
  // The transfers already settled at the first look: history, not news of this visit.
  const [known, setKnown] = useState<ReadonlySet<string> | null>(null);
  const alive = useRef(true);

  const loadTransfers = useCallback(
    () =>
      getDepositTransfers(type).then(
        (response) => {
          if (!alive.current) return;
          setTransfers(response);
          setKnown(
            (current) =>
              current ??
              new Set(response.transfers.filter((x) => x.status !== 'confirming').map((x) => x.id)),
          );
        },
        () => undefined,
      ),
    [type],
  );

  const load = useCallback(() => {
    getDepositAddress(type).then(
      (response) => {
        if (!alive.current) return;
        setAddress(response);
        setStatus('ready');
        void loadTransfers();
      },
      (failure: unknown) => {
        if (!alive.current) return;
        const off = failure instanceof ApiError && failure.code === ADDRESSES_OFF;
        setStatus(off ? 'off' : 'error');
      },
    );
  }, [type, loadTransfers]);

  useEffect(() => {
    alive.current = true;
    if (enabled) load();
    return () => {
      alive.current = false;
    };
  }, [load, enabled]);

  const shown: AddressStatus = enabled ? status : 'off';
  useEffect(() => {
    if (shown !== 'ready') return;
    const unsubscribe = onRealtime('wallet-updated', () => void loadTransfers());
    const timer = pollMs ? window.setInterval(() => void loadTransfers(), pollMs) : null;
    return () => {
      unsubscribe();
      if (timer !== null) window.clearInterval(timer);
    };
  }, [shown, pollMs, loadTransfers]);

  return { status: shown, address, transfers, known, refresh: loadTransfers };
}

export type AddressDepositState = ReturnType<typeof useAddressDeposit>;
