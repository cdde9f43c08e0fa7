import { sessionUserSchema, type Locale, type Profile, type SessionUser } from '@scn/proto';
import { proxy, useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { currentLocale, switchLocale } from '../../lib/i18n/i18n';
import { queryClient } from '../../lib/query-client';
import { setRealtimeSession } from '../../lib/realtime';
import { STORAGE_KEYS, readJson, writeJson } from '../../lib/storage';
import { getProfile } from './api/get-profile';
import { logoutRequest } from './api/logout';
import { setLocale } from './api/set-locale';
import { verifySession } from './api/verify-session';

/** docs/product/records.md#market-and-wallet-records: the session user, merged with profile fields once the profile is fetched. */
export type SessionUserRecord = SessionUser &
  Partial<Pick<Profile, 'name' | 'createdAt' | 'termsAcceptedAt' | 'locale'>>;

export interface SessionState {
  user: SessionUserRecord | null;
  token: string | null;
  /** True once the start-up session check has finished (docs/product/states.md#market-and-account-states "Session"). */
  initialized: boolean;
  readonly isAuthenticated: boolean;
  readonly isClient: boolean;
}

function readStoredUser(): SessionUserRecord | null {
  const stored = readJson<SessionUserRecord>(STORAGE_KEYS.user);
  if (!stored) return null;
  // A record written by someone else (or an older build) is not a session.
  if (!sessionUserSchema.safeParse(stored).success) {
    localStorage.removeItem(STORAGE_KEYS.user);
    return null;
  }
  return stored;
}

export const sessionStore = proxy<SessionState>({
  user: readStoredUser(),
  token: localStorage.getItem(STORAGE_KEYS.token),
  initialized: false,
  get isAuthenticated() {
    return this.user !== null;
  },
  get isClient() {
    return this.user?.userType === 'client';
  },
});

// The realtime socket presents this session, so the account's own events reach it.
setRealtimeSession(sessionStore.token);
subscribeKey(sessionStore, 'token', setRealtimeSession);

/** The session for a component: re-renders when any field it reads changes. */
export function useSession() {
  return useSnapshot(sessionStore);
}

function storeUser(user: SessionUserRecord): void {
  sessionStore.user = user;
  writeJson(STORAGE_KEYS.user, user);
}

function clearLocalSession(): void {
  sessionStore.user = null;
  sessionStore.token = null;
  localStorage.removeItem(STORAGE_KEYS.user);
  localStorage.removeItem(STORAGE_KEYS.token);
}

export interface SignInResult {
  uuid: string;
  email: string;
  userType: SessionUser['userType'];
  token?: string;
}

/** After a successful login or registration: keep the user (and token) in state and storage. */
export function signIn(result: SignInResult): void {
  storeUser({ uuid: result.uuid, email: result.email, userType: result.userType });
  if (result.token) {
    sessionStore.token = result.token;
    localStorage.setItem(STORAGE_KEYS.token, result.token);
  }
  sessionStore.initialized = true;
  void refreshProfile();
}

/**
 * Logs out: clears state, stored user and token at once, then tells the server, ignoring a
 * failure (docs/product/states.md#market-and-account-states). Navigation is the caller's business (Sign out goes to '/').
 */
export async function logout(): Promise<void> {
  // Read before clearing: without it the server call would carry no bearer token and a
  // session without the cookie (API on another origin) would stay live server-side.
  const token = sessionStore.token ?? localStorage.getItem(STORAGE_KEYS.token);
  clearLocalSession();
  // What was read for this account (wallets, statements) leaves the memory with the session.
  queryClient.clear();
  try {
    await logoutRequest(token);
  } catch {
    // docs/product/states.md#market-and-account-states: a failed server logout is ignored; the local session is already gone.
  }
}

/**
 * Merges the profile fields (name, createdAt, termsAcceptedAt, locale) into the user. Best
 * effort. The account's saved language comes first (docs/i18n.md): it replaces the browser's.
 */
export async function refreshProfile(): Promise<void> {
  const user = sessionStore.user;
  if (!user) return;
  try {
    const { user: profile } = await getProfile(user.uuid, user.userType);
    if (sessionStore.user?.uuid !== profile.uuid) return;
    storeUser({ ...sessionStore.user, ...profile });
    if (profile.locale && profile.locale !== currentLocale()) await switchLocale(profile.locale);
  } catch {
    // The profile only adds display fields; the session itself stands.
  }
}

/**
 * The language switcher's choice, saved on the signed-in account so it follows the person to
 * another device (docs/i18n.md). Best effort: the choice already applies in this browser.
 */
export async function saveAccountLocale(locale: Locale): Promise<void> {
  const user = sessionStore.user;
  if (!user || user.locale === locale) return;
  try {
    await setLocale(user.uuid, locale);
    if (sessionStore.user?.uuid === user.uuid) storeUser({ ...sessionStore.user, locale });
  } catch {
    // Offline or signed out meanwhile: the browser keeps the choice; the account does not.
  }
}

let initialization: Promise<void> | null = null;

/**
 * docs/product/states.md#market-and-account-states "Session", with our deliberate deviation: an invalid session (401/403 from
 * verify-session) always logs out, localhost included; only a failed check (network, server
 * error) keeps the stored user. Runs once; later calls share the first run.
 */
export function initSession(): Promise<void> {
  initialization ??= (async () => {
    if (!sessionStore.user) {
      sessionStore.initialized = true;
      return;
    }
    try {
      const { user } = await verifySession();
      const stored = sessionStore.user;
      // The server's user wins; stored profile fields survive only for the same account.
      storeUser(stored && stored.uuid === user.uuid ? { ...stored, ...user } : user);
      void refreshProfile();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        void logout();
      }
    } finally {
      sessionStore.initialized = true;
    }
  })();
  return initialization;
}

/** The dashboard of an account type (docs/product/screens.md#dashboards-and-information-pages). */
export function dashboardPathFor(userType: SessionUser['userType']) {
  return userType === 'client' ? paths.clientDashboard : paths.nodeDashboard;
}
