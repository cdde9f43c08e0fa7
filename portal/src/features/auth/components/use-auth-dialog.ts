import {
  firstIssueMessage,
  generateCodeRequestSchema,
  loginRequestSchema,
  registerRequestSchema,
  type AuthResponse,
  type RegisterRequest,
} from '@scn/proto';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { paths } from '../../../config/paths';
import { useApiErrorMessage } from '../../../lib/api-error-message';
import { useT } from '../../../lib/i18n/i18n';
import { acceptTerms } from '../api/accept-terms';
import { authMessage } from '../auth-messages';
import { generateCode } from '../api/generate-code';
import { login } from '../api/login';
import { register } from '../api/register';
import { closeAuth, setAuthMode, useAuthFlow } from '../store';
import { buildTermsRecord } from '../terms-record';
import type { AuthNotice } from './auth-form-dialog';
import { useResetAfterClose } from './use-reset-after-close';

/** docs/product/constants.md#market-prices-and-limits timings. */
const LOGIN_CLOSE_MS = 1000;
const REGISTER_REDIRECT_MS = 1500;
const PRE_TERMS_RECORD_MS = 500;

const delay = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * The auth dialog's state and actions (docs/product/screens.md#the-shell-and-the-market-screens "Auth dialog", docs/product/states.md#market-and-account-states "Registration" / "Login"),
 * apart from its markup: sending the code, signing in, and registering through the terms dialog.
 */
export function useAuthDialog(onAuthenticated: (result: AuthResponse) => void) {
  const { t } = useT();
  const messageOf = useApiErrorMessage();
  const flow = useAuthFlow();
  const open = flow.view === 'auth' && flow.userType !== null;
  const userType = flow.userType ?? 'client';
  const mode = flow.mode;

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [sendingCode, setSendingCode] = useState(false);
  const [pending, setPending] = useState(false);
  const [notice, setNotice] = useState<AuthNotice | null>(null);
  const [termsOpen, setTermsOpen] = useState(false);
  const [termsPending, setTermsPending] = useState(false);
  /** Set once registration or login succeeded: the form stays locked until close / redirect. */
  const [done, setDone] = useState(false);
  const pendingRegistration = useRef<RegisterRequest | null>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const redirectTimer = useRef<number | undefined>(undefined);

  // On opening, carry the e-mail over from the password-reset dialog.
  useResetAfterClose(
    open,
    () => {
      if (flow.email) setEmail(flow.email);
    },
    () => {
      setEmail('');
      setPassword('');
      setCode('');
      setCodeSent(false);
      setSendingCode(false);
      setPending(false);
      setNotice(null);
      setTermsOpen(false);
      setTermsPending(false);
      setDone(false);
      pendingRegistration.current = null;
    },
  );

  useEffect(
    () => () => {
      window.clearTimeout(closeTimer.current);
      window.clearTimeout(redirectTimer.current);
    },
    [],
  );

  const busy = pending || termsPending || done;
  const title =
    mode === 'login'
      ? userType === 'client'
        ? t('auth.dialog.loginTitleClient')
        : t('auth.dialog.loginTitleNode')
      : userType === 'client'
        ? t('auth.dialog.registerTitleClient')
        : t('auth.dialog.registerTitleNode');

  const switchMode = () => {
    setNotice(null);
    setAuthMode(mode === 'login' ? 'register' : 'login');
  };

  const onSendCode = async () => {
    const parsed = generateCodeRequestSchema.safeParse({ email, userType });
    if (!parsed.success) {
      setNotice({ tone: 'error', text: authMessage(t, firstIssueMessage(parsed.error)) });
      return;
    }
    setSendingCode(true);
    setNotice(null);
    try {
      await generateCode(parsed.data);
      setCodeSent(true);
      setNotice({ tone: 'success', text: t('auth.messages.codeSent') });
    } catch (error) {
      setNotice({ tone: 'error', text: messageOf(error, t('auth.errors.sendCodeFailed')) });
    } finally {
      setSendingCode(false);
    }
  };

  const onLogin = async () => {
    const parsed = loginRequestSchema.safeParse({ email, password, userType });
    if (!parsed.success) {
      setNotice({ tone: 'error', text: authMessage(t, firstIssueMessage(parsed.error)) });
      return;
    }
    setPending(true);
    setNotice(null);
    try {
      const result = await login(parsed.data);
      onAuthenticated(result);
      setDone(true);
      setNotice({ tone: 'success', text: t('auth.messages.loginSuccessful') });
      closeTimer.current = window.setTimeout(closeAuth, LOGIN_CLOSE_MS);
    } catch (error) {
      setNotice({ tone: 'error', text: messageOf(error, t('auth.errors.loginFailed')) });
    } finally {
      setPending(false);
    }
  };

  /** Register-mode submit only validates and opens the terms dialog (docs/product/states.md#market-and-account-states). */
  const onRegisterSubmit = () => {
    const parsed = registerRequestSchema.safeParse({
      email,
      password,
      userType,
      code,
      captchaToken: null,
    });
    if (!parsed.success) {
      setNotice({ tone: 'error', text: authMessage(t, firstIssueMessage(parsed.error)) });
      return;
    }
    pendingRegistration.current = parsed.data;
    setNotice(null);
    setTermsOpen(true);
  };

  const onTermsCancel = () => {
    setTermsOpen(false);
    pendingRegistration.current = null;
    setNotice({ tone: 'error', text: t('auth.messages.registrationCancelled') });
  };

  const onTermsAccept = async (accepted: { acceptedTerms: boolean; acceptedPrivacy: boolean }) => {
    const request = pendingRegistration.current;
    if (!request) return;
    setTermsPending(true);
    setNotice(null);

    let result: AuthResponse;
    try {
      result = await register(request);
    } catch (error) {
      setTermsPending(false);
      setTermsOpen(false);
      setNotice({ tone: 'error', text: messageOf(error, t('auth.errors.registrationFailed')) });
      return;
    }

    onAuthenticated(result);
    setDone(true);
    await delay(PRE_TERMS_RECORD_MS);

    let notice: AuthNotice = { tone: 'success', text: t('auth.messages.registrationSuccessTerms') };
    try {
      await acceptTerms(
        buildTermsRecord({
          uuid: result.uuid,
          email: result.email,
          userType: result.userType,
          ...accepted,
        }),
      );
    } catch {
      notice = { tone: 'warning', text: t('auth.messages.registrationTermsFailed') };
    }

    setTermsPending(false);
    setTermsOpen(false);
    setNotice(notice);
    const target = result.userType === 'client' ? paths.clientDashboard : paths.nodeDashboard;
    redirectTimer.current = window.setTimeout(() => {
      window.scrollTo(0, 0);
      // A full-page load, as the spec asks: the new session starts from a clean slate.
      window.location.assign(target);
    }, REGISTER_REDIRECT_MS);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (mode === 'login') void onLogin();
    else onRegisterSubmit();
  };

  const close = () => {
    if (termsPending) return;
    closeAuth();
  };

  return {
    open,
    mode,
    title,
    busy,
    pending,
    notice,
    email,
    setEmail,
    password,
    setPassword,
    code,
    setCode,
    codeSent,
    setCodeSent,
    sendingCode,
    termsOpen,
    termsPending,
    switchMode,
    onSendCode,
    onSubmit,
    close,
    onTermsCancel,
    onTermsAccept,
  };
}
