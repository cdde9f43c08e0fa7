import {
  AUTH_MESSAGES,
  AUTH_ROUTES,
  type AuthResponse,
  type MessageResponse,
  type SessionUser,
  type UserType,
} from '@scn/proto';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Stack } from './stack';

/** Helpers shared by the browser specs: accounts through the real API, storage, waits. */

/** How long a web-first wait may take before the test fails (well under jest's 60 s). */
export const WAIT_MS = 10_000;

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export interface Account {
  uuid: string;
  email: string;
  userType: UserType;
  password: string;
  token: string;
}

async function postJson<T>(
  baseUrl: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Signs up through the real endpoints: code by SMTP, then register. */
export async function registerAccount(
  stack: Stack,
  userType: UserType,
  options: { email?: string; password?: string } = {},
): Promise<Account> {
  const email = options.email ?? uniqueEmail(userType);
  const password = options.password ?? PASSWORD;
  const since = stack.smtp.mails.length;
  const sent = await postJson<MessageResponse>(stack.baseUrl, AUTH_ROUTES.generateCode, {
    email,
    userType,
  });
  if (sent.status !== 200) throw new Error(`generate-code answered ${sent.status}`);
  const code = await stack.smtp.codeFor(email, since);
  const registered = await postJson<AuthResponse>(stack.baseUrl, AUTH_ROUTES.register, {
    email,
    password,
    userType,
    code,
    captchaToken: null,
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const { uuid, token } = registered.body;
  return { uuid, email, userType, password, token };
}

/** POST /api/auth/login from the test (not the browser); returns the HTTP status. */
export async function apiLoginStatus(
  stack: Stack,
  email: string,
  password: string,
  userType: UserType,
): Promise<number> {
  const result = await postJson<unknown>(stack.baseUrl, AUTH_ROUTES.login, {
    email,
    password,
    userType,
  });
  return result.status;
}

/** Revokes a session server-side, the way another tab's logout would. */
export async function revokeToken(stack: Stack, token: string): Promise<void> {
  const result = await postJson<MessageResponse>(stack.baseUrl, AUTH_ROUTES.logout, {}, token);
  if (result.status !== 200) throw new Error(`logout answered ${result.status}`);
}

/** Whether the server still accepts a bearer token (GET /api/auth/verify-session). */
export async function tokenIsLive(stack: Stack, token: string): Promise<boolean> {
  const response = await fetch(`${stack.baseUrl}${AUTH_ROUTES.verifySession}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.status === 200;
}

/** The cookie-consent record the banner writes, pre-set so the banner never covers content. */
export const ACCEPTED_COOKIES = {
  essential: true,
  analytics: true,
  marketing: true,
  timestamp: '2025-01-01T00:00:00.000Z',
};

/**
 * Seeds localStorage before the app's first script runs. Done once per tab (a sessionStorage
 * flag), so a later logout or reload inside the test is not undone by the seed.
 */
export async function seedStorage(
  context: BrowserContext,
  entries: Record<string, string>,
): Promise<void> {
  await context.addInitScript((seed: Record<string, string>) => {
    if (window.sessionStorage.getItem('__e2e_seeded')) return;
    window.sessionStorage.setItem('__e2e_seeded', '1');
    for (const [key, value] of Object.entries(seed)) window.localStorage.setItem(key, value);
  }, entries);
}

/** The localStorage entries of a signed-in account (what the app stores after sign-in). */
export function sessionEntries(account: Account): Record<string, string> {
  const user: SessionUser = {
    uuid: account.uuid,
    email: account.email,
    userType: account.userType,
  };
  return { user: JSON.stringify(user), token: account.token };
}

export function cookieEntries(): Record<string, string> {
  return { cookieConsent: JSON.stringify(ACCEPTED_COOKIES) };
}

export interface StoredSession {
  user: string | null;
  token: string | null;
  cookieConsent: string | null;
}

export function readStorage(page: Page): Promise<StoredSession> {
  return page.evaluate(() => ({
    user: window.localStorage.getItem('user'),
    token: window.localStorage.getItem('token'),
    cookieConsent: window.localStorage.getItem('cookieConsent'),
  }));
}

/** Waits until the locator shows exactly `text` (trimmed), then returns it. */
export async function waitForText(locator: Locator, text: string): Promise<string> {
  await locator.filter({ hasText: text }).first().waitFor({ state: 'visible' });
  const actual = (await locator.first().innerText()).trim();
  return actual;
}

/** Page-level problems: console errors, uncaught errors, failed and non-2xx/3xx requests. */
export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  failedRequests: string[];
}

export function collectProblems(page: Page): PageProblems {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? 'failed';
    // An API call in flight when the page reloads or navigates is cancelled by the browser
    // (net::ERR_ABORTED): that is the page going away, not a request that failed.
    const api = request.resourceType() === 'fetch' || request.resourceType() === 'xhr';
    if (api && error === 'net::ERR_ABORTED') return;
    problems.failedRequests.push(`${request.method()} ${request.url()}: ${error}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.failedRequests.push(
        `${response.request().method()} ${response.url()}: HTTP ${response.status()}`,
      );
    }
  });
  return problems;
}

/** Waits for the given number of animation frames (lets React commit a state change). */
export function nextFrames(page: Page, frames = 2): Promise<void> {
  return page.evaluate(
    (count: number) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => {
          if (left <= 0) resolve();
          else requestAnimationFrame(() => step(left - 1));
        };
        step(count);
      }),
    frames,
  );
}

/**
 * Signs up from the landing page as a person would: the landing button for the account type,
 * e-mail and password, the code from the SMTP capture, both terms boxes, Accept & Continue.
 * Answers the success message; the portal then redirects to the account type's dashboard.
 */
export async function signUpFromLanding(
  page: Page,
  stack: Stack,
  userType: UserType,
  email: string,
): Promise<string> {
  await page.goto('/');
  const start = userType === 'node' ? 'Become a Node Operator' : 'Get Started as Client';
  await page.getByRole('button', { name: start }).first().click();
  const signUp = page.getByRole('dialog', {
    name: `Sign Up as ${userType === 'node' ? 'Node Operator' : 'Client'}`,
  });
  await signUp.waitFor();
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill(PASSWORD);
  const since = stack.smtp.mails.length;
  await signUp.getByRole('button', { name: 'Send Code' }).click();
  await signUp.getByRole('button', { name: 'Code Sent' }).waitFor();
  await signUp.getByLabel('Verification Code').fill(await stack.smtp.codeFor(email, since));
  await signUp.getByRole('button', { name: 'Sign Up', exact: true }).click();
  const terms = page.getByRole('dialog', { name: 'Terms & Policies' });
  await terms
    .getByRole('checkbox', { name: 'I have read and agree to the Terms of Service' })
    .check();
  await terms
    .getByRole('checkbox', { name: 'I have read and agree to the Protection Policy' })
    .check();
  await terms.getByRole('button', { name: 'Accept & Continue' }).click();
  return waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.registrationSuccessTerms);
}
