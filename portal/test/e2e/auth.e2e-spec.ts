import { AUTH_MESSAGES, type UserType } from '@scn/proto';
import type { Locator, Page } from 'playwright-core';
import { MOBILE } from './support/browser';
import {
  PASSWORD,
  apiLoginStatus,
  readStorage,
  registerAccount,
  revokeToken,
  tokenIsLive,
  uniqueEmail,
  waitForText,
} from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Accounts in the browser (docs/product/screens.md#the-shell-and-the-market-screens Shell, chooser, auth, reset and terms dialogs; docs/product/states.md#market-and-account-states Session,
 * Registration, Login, Password reset; docs/product/messages.md#market-and-account-messages messages; docs/product/screens.md#dashboards-and-information-pages dashboard access rules).
 */

const suite = browserSuite();
const { openPage } = suite;

const typeLabel = (userType: UserType) => (userType === 'client' ? 'Client' : 'Node Operator');

function authDialog(page: Page, mode: 'Sign In' | 'Sign Up', userType: UserType): Locator {
  return page.getByRole('dialog', { name: `${mode} as ${typeLabel(userType)}` });
}

function topBarButton(page: Page, name: 'Log In' | 'Sign Up'): Locator {
  return page.getByTestId('top-bar').getByRole('button', { name, exact: true });
}

async function accountRows(email: string, userType?: UserType) {
  return suite.stack.db.query<{ uuid: string; user_type: string }>(
    `SELECT uuid, user_type FROM accounts WHERE email = $1${userType ? ' AND user_type = $2' : ''}`,
    userType ? [email, userType] : [email],
  );
}

/** Fills the register form and, unless a code is given, requests one and reads it by SMTP. */
async function fillRegistration(
  page: Page,
  dialog: Locator,
  email: string,
  code?: (mailed: string) => string,
): Promise<void> {
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(PASSWORD);
  let value = '123456';
  if (code) {
    const since = suite.stack.smtp.mails.length;
    await dialog.getByRole('button', { name: 'Send Code' }).click();
    await dialog.getByRole('button', { name: 'Code Sent' }).waitFor();
    expect(await waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.codeSent)).toBe(
      AUTH_MESSAGES.codeSent,
    );
    value = code(await suite.stack.smtp.codeFor(email, since));
  }
  await dialog.getByLabel('Verification Code').fill(value);
  await dialog.getByRole('button', { name: 'Sign Up', exact: true }).click();
}

/** Ticks both boxes in the terms dialog, checking that Accept waits for both. */
async function acceptTerms(page: Page): Promise<void> {
  const terms = page.getByRole('dialog', { name: 'Terms & Policies' });
  await terms.waitFor();
  const accept = terms.getByRole('button', { name: 'Accept & Continue' });
  expect(await accept.isDisabled()).toBe(true);
  await terms
    .getByRole('checkbox', { name: 'I have read and agree to the Terms of Service' })
    .check();
  expect(await accept.isDisabled()).toBe(true);
  await terms
    .getByRole('checkbox', { name: 'I have read and agree to the Protection Policy' })
    .check();
  expect(await accept.isEnabled()).toBe(true);
  await accept.click();
}

/** The whole sign-up from an open register dialog to the dashboard, with DB and storage checks. */
async function completeSignUp(page: Page, userType: UserType, email: string): Promise<void> {
  const dialog = authDialog(page, 'Sign Up', userType);
  await fillRegistration(page, dialog, email, (mailed) => mailed);
  await acceptTerms(page);

  expect(
    await waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.registrationSuccessTerms),
  ).toBe(AUTH_MESSAGES.registrationSuccessTerms);
  await page.getByRole('dialog', { name: 'Terms & Policies' }).waitFor({ state: 'detached' });

  // A full-page redirect after 1.5 s to the dashboard of the account type.
  const dashboard = userType === 'client' ? '/client-dashboard' : '/node-dashboard';
  await page.waitForURL(`${suite.stack.baseUrl}${dashboard}`);
  const heading = userType === 'client' ? 'Client Dashboard' : 'Node Dashboard';
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  expect(await page.getByTestId('dashboard-email').innerText()).toBe(email);

  const accounts = await accountRows(email);
  expect(accounts).toHaveLength(1);
  expect(accounts[0]!.user_type).toBe(userType);
  const terms = await suite.stack.db.query<{ ip_address: string; terms_version: string }>(
    'SELECT ip_address, terms_version FROM terms_acceptances WHERE account_uuid = $1',
    [accounts[0]!.uuid],
  );
  expect(terms).toEqual([{ ip_address: '127.0.0.1', terms_version: '1.0' }]);

  // The profile (with the terms acceptance) is merged into the stored user after the session
  // check, in the background: wait for it rather than race it.
  await page.waitForFunction(
    () =>
      (JSON.parse(window.localStorage.getItem('user') ?? 'null') as { termsAcceptedAt?: unknown })
        ?.termsAcceptedAt,
  );
  const stored = await readStorage(page);
  expect(stored.token).toEqual(expect.any(String));
  expect(JSON.parse(stored.user ?? 'null')).toEqual({
    uuid: accounts[0]!.uuid,
    email,
    userType,
    // Profile fields merged in after sign-in (docs/product/records.md#market-and-wallet-records).
    name: email.split('@')[0],
    createdAt: expect.any(String),
    termsAcceptedAt: expect.any(String),
    // No saved language yet: the browser's decides (docs/i18n.md).
    locale: null,
  });
}

describe('registration', () => {
  it('a newcomer signs up as Client from the landing CTA and lands on the client dashboard', async () => {
    const page = await openPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Started as Client' }).click();
    await authDialog(page, 'Sign Up', 'client').waitFor();
    // With a user type given, the chooser is skipped.
    expect(await page.getByRole('dialog', { name: 'Select Your Account Type' }).count()).toBe(0);

    await completeSignUp(page, 'client', uniqueEmail('newcomer'));
  });

  it('signs up as Node Operator from the top bar through the account-type chooser', async () => {
    const page = await openPage();
    await page.goto('/');
    await topBarButton(page, 'Sign Up').click();
    const chooser = page.getByRole('dialog', { name: 'Select Your Account Type' });
    await chooser.waitFor();
    expect(await chooser.getByRole('button', { name: 'Client' }).isVisible()).toBe(true);
    await chooser.getByRole('button', { name: 'Node Operator' }).click();
    await authDialog(page, 'Sign Up', 'node').waitFor();
    await chooser.waitFor({ state: 'detached' });

    await completeSignUp(page, 'node', uniqueEmail('operator'));
  });

  it('cancelling the terms dialog creates no account', async () => {
    const page = await openPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Started as Client' }).click();
    const dialog = authDialog(page, 'Sign Up', 'client');
    const email = uniqueEmail('cancel');
    await fillRegistration(page, dialog, email);

    const terms = page.getByRole('dialog', { name: 'Terms & Policies' });
    await terms.getByRole('button', { name: 'Cancel' }).click();
    await terms.waitFor({ state: 'detached' });
    expect(
      await waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.registrationCancelled),
    ).toBe(AUTH_MESSAGES.registrationCancelled);
    expect(await dialog.isVisible()).toBe(true);
    expect(await accountRows(email)).toHaveLength(0);
    expect((await readStorage(page)).user).toBeNull();
  });

  it('a wrong verification code shows the server message and creates no account', async () => {
    const page = await openPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Started as Client' }).click();
    const dialog = authDialog(page, 'Sign Up', 'client');
    const email = uniqueEmail('wrong-code');
    await fillRegistration(page, dialog, email, (mailed) =>
      String((Number(mailed) + 1) % 1_000_000).padStart(6, '0'),
    );
    await acceptTerms(page);

    expect(await waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.invalidCode)).toBe(
      AUTH_MESSAGES.invalidCode,
    );
    // A failed registration closes the terms dialog and leaves the form usable.
    await page.getByRole('dialog', { name: 'Terms & Policies' }).waitFor({ state: 'detached' });
    expect(await dialog.getByRole('button', { name: 'Sign Up', exact: true }).isEnabled()).toBe(
      true,
    );
    expect(page.url()).toBe(`${suite.stack.baseUrl}/`);
    expect(await accountRows(email)).toHaveLength(0);
  });
});

describe('sign in and out', () => {
  it('the profile menu shows the account, Sign out clears the session, Log In signs back in', async () => {
    const account = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account });
    await page.goto('/client-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();

    const trigger = page.getByTestId('profile-menu');
    // The trigger shows the part of the e-mail before the @ (after the avatar's initial).
    expect(await trigger.innerText()).toMatch(new RegExp(`${account.email.split('@')[0]}$`));
    await trigger.click();
    const dropdown = page.getByTestId('profile-dropdown');
    await dropdown.waitFor();
    expect(await page.getByTestId('profile-email').innerText()).toBe(account.email);
    expect(await page.getByTestId('uuid-value').innerText()).toBe(account.uuid);
    await page.getByTestId('copy-uuid').click();
    expect(await waitForText(page.getByTestId('copy-uuid'), 'Copied!')).toBe('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(account.uuid);

    // A click outside closes the dropdown.
    await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).click();
    await dropdown.waitFor({ state: 'detached' });

    await trigger.click();
    const serverLogout = page.waitForResponse((response) =>
      response.url().endsWith('/api/auth/logout'),
    );
    await dropdown.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${suite.stack.baseUrl}/`);
    await topBarButton(page, 'Log In').waitFor();
    expect(await readStorage(page)).toMatchObject({ user: null, token: null });
    await page
      .getByRole('heading', { level: 1, name: 'Stay Connected. Stay Invisible.' })
      .waitFor();
    // The server revoked the session too (docs/product/states.md#market-and-account-states: logout calls the server).
    await serverLogout;
    expect(await tokenIsLive(suite.stack, account.token)).toBe(false);

    // Log In opens the auth flow in login mode (docs/product/screens.md#the-shell-and-the-market-screens); without a type the chooser first.
    await topBarButton(page, 'Log In').click();
    await page
      .getByRole('dialog', { name: 'Select Your Account Type' })
      .getByRole('button', { name: 'Client' })
      .click();
    const dialog = authDialog(page, 'Sign In', 'client');
    await dialog.waitFor();
    expect(await dialog.getByLabel('Verification Code').count()).toBe(0);

    await dialog.getByLabel('Email').fill(account.email);
    await dialog.getByLabel('Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect(
      await waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.invalidCredentials),
    ).toBe(AUTH_MESSAGES.invalidCredentials);
    expect((await readStorage(page)).user).toBeNull();

    await dialog.getByLabel('Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect(await waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.loginSuccessful)).toBe(
      AUTH_MESSAGES.loginSuccessful,
    );
    // The dialog closes after 1 s and the top bar shows the profile menu.
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('profile-menu').waitFor();
    const stored = await readStorage(page);
    expect(stored.token).toEqual(expect.any(String));
    expect(stored.token).not.toBe(account.token);
    expect(JSON.parse(stored.user ?? 'null')).toMatchObject({
      uuid: account.uuid,
      email: account.email,
      userType: 'client',
    });
  });

  it('resets a forgotten password with the e-mailed code and signs in with the new one', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const newPassword = 'a brand new passphrase';
    const page = await openPage();
    await page.goto('/');
    await topBarButton(page, 'Log In').click();
    await page
      .getByRole('dialog', { name: 'Select Your Account Type' })
      .getByRole('button', { name: 'Node Operator' })
      .click();
    const signIn = authDialog(page, 'Sign In', 'node');
    await signIn.getByLabel('Email').fill(account.email);
    await signIn.getByRole('button', { name: 'Forgot Password?' }).click();

    const reset = page.getByRole('dialog', { name: 'Reset Your Password' });
    await reset.waitFor();
    await signIn.waitFor({ state: 'detached' });
    // The e-mail is carried over from the sign-in dialog.
    expect(await reset.getByLabel('Email').inputValue()).toBe(account.email);
    const since = suite.stack.smtp.mails.length;
    await reset.getByRole('button', { name: 'Send Reset Code' }).click();
    expect(await waitForText(page.getByTestId('reset-message'), AUTH_MESSAGES.forgotPassword)).toBe(
      AUTH_MESSAGES.forgotPassword,
    );
    const code = await suite.stack.smtp.codeFor(account.email, since);

    const codeField = reset.getByLabel('Reset Code');
    expect(await codeField.getAttribute('placeholder')).toBe('Enter 6-digit code');
    await codeField.fill(code);
    await reset.getByLabel('New Password', { exact: true }).fill(newPassword);
    await reset.getByLabel('Confirm New Password').fill(`${newPassword}!`);
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    expect(
      await waitForText(page.getByTestId('reset-message'), AUTH_MESSAGES.passwordsDoNotMatch),
    ).toBe(AUTH_MESSAGES.passwordsDoNotMatch);
    // Nothing was sent: the old password still works.
    expect(await apiLoginStatus(suite.stack, account.email, account.password, 'node')).toBe(200);

    await reset.getByLabel('Confirm New Password').fill(newPassword);
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    expect(await waitForText(page.getByTestId('reset-message'), AUTH_MESSAGES.passwordReset)).toBe(
      AUTH_MESSAGES.passwordReset,
    );

    // After 2 s the dialog switches to sign-in, with the e-mail kept.
    const signInAgain = authDialog(page, 'Sign In', 'node');
    await signInAgain.waitFor();
    await reset.waitFor({ state: 'detached' });
    expect(await signInAgain.getByLabel('Email').inputValue()).toBe(account.email);
    expect(await apiLoginStatus(suite.stack, account.email, account.password, 'node')).toBe(401);

    await signInAgain.getByLabel('Password').fill(newPassword);
    await signInAgain.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect(await waitForText(page.getByTestId('auth-message'), AUTH_MESSAGES.loginSuccessful)).toBe(
      AUTH_MESSAGES.loginSuccessful,
    );
    await signInAgain.waitFor({ state: 'detached' });
    await page.getByTestId('profile-menu').waitFor();
    expect(JSON.parse((await readStorage(page)).user ?? 'null')).toMatchObject({
      uuid: account.uuid,
      userType: 'node',
    });
  });
});

describe('session', () => {
  it('a stored session the server no longer accepts is logged out on reload', async () => {
    const account = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account });
    await page.goto('/client-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();
    await page.getByTestId('profile-menu').waitFor();

    await revokeToken(suite.stack, account.token);
    await page.reload();

    // The guard sends the now signed-out visitor home; storage is cleared.
    await page.waitForURL(`${suite.stack.baseUrl}/`);
    await topBarButton(page, 'Log In').waitFor();
    expect(await page.getByTestId('profile-menu').count()).toBe(0);
    expect(await readStorage(page)).toMatchObject({ user: null, token: null });
  });
});

describe('dashboard guards', () => {
  it('a client visiting /node-dashboard lands on /client-dashboard', async () => {
    const account = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account });
    await page.goto('/node-dashboard');
    await page.waitForURL(`${suite.stack.baseUrl}/client-dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Node Dashboard' }).count()).toBe(0);
  });

  it('a node operator visiting /client-dashboard lands on /node-dashboard', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openPage({ account });
    await page.goto('/client-dashboard');
    await page.waitForURL(`${suite.stack.baseUrl}/node-dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Node Dashboard' }).waitFor();
    expect(await page.getByTestId('dashboard-email').innerText()).toBe(account.email);
  });

  it.each(['/client-dashboard', '/node-dashboard'])(
    'a signed-out visitor of %s lands on /',
    async (path) => {
      const page = await openPage();
      await page.goto(path);
      await page.waitForURL(`${suite.stack.baseUrl}/`);
      await page
        .getByRole('heading', { level: 1, name: 'Stay Connected. Stay Invisible.' })
        .waitFor();
      await topBarButton(page, 'Log In').waitFor();
    },
  );
});

describe('mobile', () => {
  it('the menu toggle opens the links, Dashboard and Sign out at 390 px', async () => {
    const account = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account, viewport: MOBILE });
    await page.goto('/');
    await page.getByTestId('profile-menu').waitFor({ state: 'attached' });
    // The desktop links and actions give way to the toggle.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const toggle = page.getByTestId('mobile-menu-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    await toggle.click();
    const menu = page.getByTestId('mobile-menu');
    await menu.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const nav = page.getByRole('navigation', { name: 'Mobile' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual([
      'Servers',
      'Security',
      'Our View',
      'Service Economics',
      'Dashboard',
    ]);
    expect(await nav.innerText()).toContain(account.email);

    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${suite.stack.baseUrl}/client-dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();
    await menu.waitFor({ state: 'detached' });

    await toggle.click();
    await nav.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${suite.stack.baseUrl}/`);
    await menu.waitFor({ state: 'detached' });
    expect(await readStorage(page)).toMatchObject({ user: null, token: null });

    // Signed out, the menu offers Log In and Sign Up instead.
    await toggle.click();
    await nav.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await nav.getByRole('button', { name: 'Sign Up' }).isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
  });
});
