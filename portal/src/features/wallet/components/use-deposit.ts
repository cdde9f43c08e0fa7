import type { DepositRequest } from '@scn/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  createDepositRequest,
  getDemoWalletAddress,
  getDepositRequest,
  payWithDemoWallet,
  useSolanaConfig,
  verifyDeposit,
} from '../api/solana';
import { useT } from '../../../lib/i18n/i18n';
import { onRealtime } from '../../../lib/realtime';
import { type WalletType, refreshWallet } from '../api/get-wallet';
import { type CryptoForm, checkCryptoForm, creditedMessage, verifyOutcome } from '../deposit-rules';
import {
  type WalletMessage,
  depositFailure,
  depositMessage,
  messageText,
} from '../wallet-messages';

export type DepositStep = 'method' | 'crypto' | 'instructions';
type Busy = 'continue' | 'verify' | 'demo' | null;

/** While the instructions show, the request is looked at this often (the watcher may credit it). */
export const REQUEST_POLL_MS = 2000;

export interface UseDepositOptions {
  type: WalletType;
  ownerUuid: string;
  onClose: () => void;
}

/**
 * The deposit dialog's state (docs/product/states.md#market-and-account-states "Deposit (crypto)"): method, form, the server's deposit
 * request and its payment instructions, Verify, the demo wallet (localnet), and the end: the
 * dialog closes, the fields clear (the dialog's state goes with it) and an alert reports the SSL
 * credited, whether Verify or the server's watcher credited it.
 */
export function useDeposit({ type, ownerUuid, onClose }: UseDepositOptions) {
  const { t, locale } = useT('wallet');
  const [step, setStep] = useState<DepositStep>('method');
  const config = useSolanaConfig(step === 'crypto');
  const [form, setForm] = useState<CryptoForm>({ solAmount: '', userAddress: '' });
  const [request, setRequest] = useState<DepositRequest | null>(null);
  const [error, setError] = useState<WalletMessage | null>(null);
  const [notice, setNotice] = useState<WalletMessage | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [signature, setSignature] = useState<string | null>(null);
  const finished = useRef(false);

  const finish = useCallback(
    (alert: WalletMessage) => {
      if (finished.current) return;
      finished.current = true;
      void refreshWallet(type, ownerUuid);
      onClose();
      const text = messageText(t, alert);
      window.setTimeout(() => window.alert(text), 0);
    },
    [type, ownerUuid, onClose, t],
  );

  // The watcher credits without anyone pressing Verify: follow the request while it is shown,
  // at once when a credit is announced ('wallet-updated'), else every REQUEST_POLL_MS.
  useEffect(() => {
    if (step !== 'instructions' || !request) return;
    const check = () =>
      getDepositRequest(request.id).then(
        ({ request: current }) => {
          if (current.status === 'credited') {
            finish(creditedMessage(current.sslCreditMicro, locale));
          } else if (current.status === 'expired') {
            setError(depositMessage('requestExpired'));
          }
        },
        () => undefined,
      );
    const timer = window.setInterval(() => void check(), REQUEST_POLL_MS);
    const unsubscribe = onRealtime('wallet-updated', () => void check());
    return () => {
      window.clearInterval(timer);
      unsubscribe();
    };
  }, [step, request, finish, locale]);

  const go = (next: DepositStep) => {
    setError(null);
    setNotice(null);
    setStep(next);
  };

  // A changed field makes the last refusal stale.
  const setField = (field: keyof CryptoForm, value: string) => {
    setError(null);
    setForm((current) => ({ ...current, [field]: value }));
  };

  const submit = async () => {
    const check = checkCryptoForm(form, ownerUuid);
    if (!check.ok) return setError(check.error);
    setError(null);
    setBusy('continue');
    try {
      const { request: created } = await createDepositRequest({
        solAmount: check.solAmount,
        userAddress: check.userAddress,
      });
      setRequest(created);
      setSignature(null);
      go('instructions');
    } catch (failure) {
      setError(depositFailure(failure, 'initFailed'));
    } finally {
      setBusy(null);
    }
  };

  const verify = async () => {
    if (!request) return;
    setError(null);
    setBusy('verify');
    try {
      const outcome = verifyOutcome(
        await verifyDeposit({
          userAddress: request.userAddress,
          expectedAmount: request.solAmount,
          userId: ownerUuid,
          requestId: request.id,
          ...(signature ? { signature } : {}),
        }),
        locale,
      );
      if (outcome.credited) finish(outcome.alert);
      else setError(outcome.error);
    } catch (failure) {
      setError(depositFailure(failure, 'verifyFailed'));
    } finally {
      setBusy(null);
    }
  };

  const payDemo = async () => {
    const demoWalletUrl = config.data?.demoWalletUrl;
    if (!request || !demoWalletUrl) return;
    setError(null);
    setBusy('demo');
    try {
      setSignature(await payWithDemoWallet(demoWalletUrl, request.transferUrl));
      setNotice({ text: t('deposit.instructions.demoSent') });
    } catch (failure) {
      setError(depositFailure(failure, 'verifyFailed'));
    } finally {
      setBusy(null);
    }
  };

  /** localnet: the demo wallet pays, so the form can take its address in one click. */
  const fillDemoAddress = async () => {
    const demoWalletUrl = config.data?.demoWalletUrl;
    if (!demoWalletUrl) return;
    setError(null);
    try {
      setField('userAddress', await getDemoWalletAddress(demoWalletUrl));
    } catch (failure) {
      setError(depositFailure(failure, 'initFailed'));
    }
  };

  return {
    step,
    form,
    request,
    error,
    notice,
    busy,
    config,
    chooseCrypto: () => go('crypto'),
    backToMethod: () => go('method'),
    backToEdit: () => go('crypto'),
    retryConfig: config.retry,
    setField,
    submit: () => void submit(),
    verify: () => void verify(),
    payDemo: () => void payDemo(),
    fillDemoAddress: () => void fillDemoAddress(),
  };
}

export type DepositState = ReturnType<typeof useDeposit>;
