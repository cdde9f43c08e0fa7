import {
  firstIssueMessage,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
} from '@scn/proto';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useApiErrorMessage } from '../../../lib/api-error-message';
import { useT } from '../../../lib/i18n/i18n';
import { authMessage } from '../auth-messages';
import { forgotPassword } from '../api/forgot-password';
import { resetPassword } from '../api/reset-password';
import { backToSignIn, useAuthFlow } from '../store';
import type { AuthNotice } from './auth-form-dialog';
import { useResetAfterClose } from './use-reset-after-close';

/** docs/product/constants.md#market-prices-and-limits: switch to login 2 s after a reset. */
const BACK_TO_LOGIN_MS = 2000;

/**
 * The password-reset dialog's state and actions (docs/product/screens.md#the-shell-and-the-market-screens "Password-reset dialog (two steps)",
 * docs/product/states.md#market-and-account-states "Password reset"), apart from its markup: requesting the code, then setting the password.
 * codeRef is the code input, focused when step 2 shows.
 */
export function usePasswordResetDialog(codeRef: RefObject<HTMLInputElement | null>) {
  const { t } = useT();
  const errorMessage = useApiErrorMessage();
  const flow = useAuthFlow();
  const open = flow.view === 'reset';
  const userType = flow.userType ?? 'client';

  const [step, setStep] = useState<1 | 2>(1);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const [notice, setNotice] = useState<AuthNotice | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useResetAfterClose(
    open,
    () => setEmail(flow.email),
    () => {
      setStep(1);
      setCode('');
      setNewPassword('');
      setConfirmPassword('');
      setPending(false);
      setDone(false);
      setNotice(null);
    },
  );
  // A closed dialog does not go back to sign-in on its own 2 s later.
  useEffect(() => {
    if (!open) window.clearTimeout(timer.current);
  }, [open]);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  // The step-1 button that had focus is gone once step 2 shows: move focus to the code.
  useEffect(() => {
    if (open && step === 2) codeRef.current?.focus();
  }, [open, step, codeRef]);

  const busy = pending || done;

  const requestCode = async () => {
    const parsed = forgotPasswordRequestSchema.safeParse({ email, userType });
    if (!parsed.success) {
      setNotice({ tone: 'error', text: authMessage(t, firstIssueMessage(parsed.error)) });
      return;
    }
    setPending(true);
    setNotice(null);
    try {
      await forgotPassword(parsed.data);
    } catch {
      // docs/product/messages.md#market-and-account-messages: forgot password always reports the same message, even on error, so the
      // dialog never reveals whether an address has an account.
    }
    setPending(false);
    setNotice({ tone: 'success', text: t('auth.messages.forgotPassword') });
    setStep(2);
  };

  const submitReset = async () => {
    // docs/product/input-rules.md#market-and-account-input: checked in this order.
    if (!code.trim())
      return setNotice({ tone: 'error', text: t('auth.messages.resetCodeRequired') });
    if (!newPassword)
      return setNotice({ tone: 'error', text: t('auth.messages.newPasswordRequired') });
    if (newPassword !== confirmPassword) {
      return setNotice({ tone: 'error', text: t('auth.messages.passwordsDoNotMatch') });
    }
    const parsed = resetPasswordRequestSchema.safeParse({ email, code, newPassword, userType });
    if (!parsed.success) {
      // The schema puts the e-mail first; after the spec's checks the password length leads.
      const passwordIssue = parsed.error.issues.find((issue) => issue.path[0] === 'newPassword');
      return setNotice({
        tone: 'error',
        text: authMessage(t, passwordIssue?.message ?? firstIssueMessage(parsed.error)),
      });
    }
    setPending(true);
    setNotice(null);
    try {
      await resetPassword(parsed.data);
      setDone(true);
      setNotice({ tone: 'success', text: t('auth.messages.passwordReset') });
      timer.current = window.setTimeout(() => backToSignIn(parsed.data.email), BACK_TO_LOGIN_MS);
    } catch (error) {
      setNotice({
        tone: 'error',
        text: errorMessage(error, t('auth.errors.resetFailed')),
      });
    } finally {
      setPending(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    void (step === 1 ? requestCode() : submitReset());
  };

  const backToRequest = () => {
    setNotice(null);
    setStep(1);
  };

  return {
    open,
    userType,
    step,
    email,
    setEmail,
    code,
    setCode,
    newPassword,
    setNewPassword,
    confirmPassword,
    setConfirmPassword,
    pending,
    busy,
    notice,
    onSubmit,
    backToRequest,
  };
}
