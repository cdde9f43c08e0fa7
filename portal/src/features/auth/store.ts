import type { UserType } from '@scn/proto';
import { proxy, useSnapshot } from 'valtio';
import { STORAGE_KEYS } from '../../lib/storage';

export type AuthMode = 'login' | 'register';
/** Which auth surface is showing: none, the account-type chooser, the auth dialog or password reset. */
export type AuthView = 'closed' | 'chooser' | 'auth' | 'reset';

export interface AuthState {
  view: AuthView;
  mode: AuthMode;
  userType: UserType | null;
  /** E-mail carried between the auth dialog and the password-reset dialog. */
  email: string;
}

export const authStore = proxy<AuthState>({
  view: 'closed',
  mode: 'register',
  userType: null,
  email: '',
});

export function useAuthFlow() {
  return useSnapshot(authStore);
}

/** docs/product/screens.md#the-shell-and-the-market-screens "Shell": login when a stored user record exists, otherwise register. */
export function defaultAuthMode(): AuthMode {
  return localStorage.getItem(STORAGE_KEYS.user) ? 'login' : 'register';
}

export interface OpenAuthOptions {
  mode?: AuthMode;
  userType?: UserType;
}

/**
 * Opens the auth flow from anywhere (top bar, landing page, ...). Without a user type the
 * account-type chooser comes first; with one the auth dialog opens straight away.
 */
export function openAuth(options: OpenAuthOptions = {}): void {
  authStore.email = '';
  authStore.mode = options.mode ?? defaultAuthMode();
  if (options.userType) {
    authStore.userType = options.userType;
    authStore.view = 'auth';
  } else {
    authStore.userType = null;
    authStore.view = 'chooser';
  }
}

/** The chooser's answer: it closes and the auth dialog opens for that type. */
export function chooseUserType(userType: UserType): void {
  authStore.userType = userType;
  authStore.view = 'auth';
}

export function setAuthMode(mode: AuthMode): void {
  authStore.mode = mode;
}

export function openPasswordReset(email: string): void {
  authStore.email = email;
  authStore.view = 'reset';
}

/** From the reset dialog back to the auth dialog in login mode. */
export function backToSignIn(email?: string): void {
  if (email !== undefined) authStore.email = email;
  authStore.mode = 'login';
  authStore.view = 'auth';
}

export function closeAuth(): void {
  authStore.view = 'closed';
}
