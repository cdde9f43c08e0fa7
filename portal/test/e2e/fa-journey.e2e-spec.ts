import type { Locator, Page } from 'playwright-core';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { MOBILE } from './support/browser';
import { message, overflowing, untranslatedWords } from './support/i18n';
import { insertListedServer, insertOperator, marketCard } from './support/market';
import { PASSWORD, collectProblems, uniqueEmail, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The main journeys as a Persian reader on a 390 px phone lives them (docs/i18n.md): a client
 * signs up, deposits from the demo wallet, buys two servers and gets their link; an operator
 * signs up and walks the setup wizard. At every screen and dialog the page is right to left, shows
 * no Latin word beyond the allow-list (support/i18n.ts), and nothing reaches past the screen.
 * Buttons are found by their Persian names, read from the catalogues.
 */

const suite = browserSuite({ solana: true });

/** A message of the Persian catalogues (common: 'translation'). */
const fa = (namespace: string, key: string, values?: Record<string, string>) =>
  message('fa', namespace, key, values);

// Server names and places are the operator's words: Persian here, so every word on screen is
// the portal's own.
const SERVERS = ['لیسبون یک', 'لیسبون دو'] as const;

beforeAll(async () => {
  const ownerUuid = await insertOperator(suite.stack);
  for (const [index, name] of SERVERS.entries()) {
    await insertListedServer(suite.stack, {
      ownerUuid,
      name,
      host: '203.0.113.31',
      port: 31_001 + index,
      location: 'لیسبون',
    });
  }
});

/** The screen (or the open dialog) reads as Persian, right to left, within the phone's width. */
async function expectPersian(page: Page, where: string): Promise<void> {
  expect({
    where,
    dir: await page.evaluate(() => document.documentElement.dir),
    lang: await page.evaluate(() => document.documentElement.lang),
    untranslated: await untranslatedWords(page),
    overflowing: await overflowing(page),
  }).toEqual({ where, dir: 'rtl', lang: 'fa', untranslated: [], overflowing: [] });
}

async function signUp(page: Page, userType: 'client' | 'node', email: string): Promise<void> {
  const { stack } = suite;
  await page.goto('/');
  await page.getByTestId('hero-cta').waitFor();
  await expectPersian(page, 'landing');
  const start =
    userType === 'client'
      ? fa('translation', 'landing.cta.startClient')
      : fa('translation', 'landing.cta.becomeOperator');
  await page.getByTestId('hero-cta').getByRole('button', { name: start }).click();
  const dialog = page.getByRole('dialog', {
    name: fa(
      'translation',
      userType === 'client' ? 'auth.dialog.registerTitleClient' : 'auth.dialog.registerTitleNode',
    ),
  });
  await dialog.waitFor();
  await expectPersian(page, 'sign-up dialog');
  await dialog.getByLabel(fa('translation', 'auth.dialog.email')).fill(email);
  await dialog.getByLabel(fa('translation', 'auth.dialog.password')).fill(PASSWORD);
  const since = stack.smtp.mails.length;
  await dialog.getByRole('button', { name: fa('translation', 'auth.dialog.sendCode') }).click();
  await dialog.getByRole('button', { name: fa('translation', 'auth.dialog.codeSent') }).waitFor();
  const mail = await stack.smtp.codeFor(email, since);
  await dialog.getByLabel(fa('translation', 'auth.dialog.code')).fill(mail);
  await dialog
    .getByRole('button', { name: fa('translation', 'auth.dialog.signUp'), exact: true })
    .click();
  const terms = page.getByRole('dialog', { name: fa('legal', 'dialog.title') });
  await terms.waitFor();
  await expectPersian(page, 'terms dialog');
  for (const checkbox of await terms.getByRole('checkbox').all()) await checkbox.check();
  await terms.getByRole('button', { name: fa('legal', 'dialog.accept') }).click();
}

/** The open dialog named `name`, once it reads as Persian. */
async function dialogNamed(page: Page, name: string, where: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await expectPersian(page, where);
  return dialog;
}

describe('in Persian on a phone', () => {
  it('a client signs up, deposits, buys two servers and gets the link', async () => {
    const { stack } = suite;
    const page = await suite.openPage({ locale: 'fa-IR', viewport: MOBILE });
    const problems = collectProblems(page);
    const email = uniqueEmail('fa-client');

    await signUp(page, 'client', email);
    await page.waitForURL(`${stack.baseUrl}/client-dashboard`);
    const wallet = page.getByTestId('client-wallet');
    await waitForText(wallet.getByTestId('wallet-balance'), '۰٫۰۰');
    await expectPersian(page, 'empty client dashboard');

    // A deposit of 0.1 SOL from the demo wallet, through the dialog.
    await wallet.getByRole('button', { name: fa('wallet', 'panel.deposit') }).click();
    const deposit = await dialogNamed(page, fa('wallet', 'deposit.title'), 'deposit dialog');
    await deposit
      .getByRole('button', { name: new RegExp(fa('wallet', 'deposit.crypto.title')) })
      .click();
    await deposit.getByLabel(fa('wallet', 'deposit.form.amount')).fill('0.1');
    await deposit.getByRole('button', { name: fa('wallet', 'deposit.form.demoAddress') }).click();
    await expectPersian(page, 'deposit form');
    await deposit.getByRole('button', { name: fa('wallet', 'deposit.form.continue') }).click();
    const instructions = deposit.getByTestId('deposit-instructions');
    await instructions.waitFor();
    await expectPersian(page, 'deposit instructions');
    await instructions
      .getByRole('button', { name: fa('wallet', 'deposit.instructions.payDemo') })
      .click();
    // 0.1 SOL at the local chain's rate: 514 SSL (as deposit-ui.e2e-spec.ts), in Persian digits.
    await waitForText(wallet.getByTestId('wallet-balance'), '۵۱۴٫۰۰');
    if (await deposit.isVisible()) await page.keyboard.press('Escape');
    await deposit.waitFor({ state: 'detached' });

    // The market: both servers, the summary, the payment, the result with the link.
    await page.goto('/servers');
    await marketCard(page, SERVERS[0]).waitFor();
    await expectPersian(page, 'market');
    for (const name of SERVERS) await marketCard(page, name).getByTestId('market-connect').click();
    await expectPersian(page, 'market with a selection');
    await page
      .getByRole('region', { name: fa('translation', 'market.selection.label') })
      .getByRole('button', { name: fa('translation', 'market.selection.create') })
      .click();
    const create = await dialogNamed(page, fa('client', 'purchase.title'), 'purchase summary');
    await create.getByRole('button', { name: fa('client', 'purchase.summary.create') }).click();
    const payment = await dialogNamed(
      page,
      fa('client', 'purchase.payment.title'),
      'payment confirmation',
    );
    await payment.getByRole('button', { name: fa('client', 'purchase.payment.confirm') }).click();
    await create.getByTestId('purchase-result').waitFor();
    await expectPersian(page, 'purchase result');
    await create.getByRole('button', { name: fa('client', 'purchase.result.view') }).click();
    await page.waitForURL(`${stack.baseUrl}/client-dashboard`);

    // Connect: the QR dialog's link, kept left to right, and the dashboard with the subscription.
    const qr = await dialogNamed(page, fa('client', 'qr.title'), 'QR dialog');
    await qr.getByTestId('qr-ready').waitFor();
    const link = qr.getByTestId('qr-connection');
    expect(await link.inputValue()).toMatch(/^vless:\/\/[0-9a-f-]{36}@203\.0\.113\.31:3100[12]\?/);
    expect(await link.evaluate((input) => getComputedStyle(input).direction)).toBe('ltr');
    await page.keyboard.press('Escape');
    await qr.waitFor({ state: 'detached' });
    await waitForText(wallet.getByTestId('wallet-balance'), '۴۹۴٫۰۰');
    await page.getByTestId('subscription-card').first().waitFor();
    await expectPersian(page, 'client dashboard with a subscription');

    expect(await ledgerViolations(stack.db.url)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });

  it('an operator signs up and walks the setup wizard', async () => {
    const { stack } = suite;
    const page = await suite.openPage({ locale: 'fa-IR', viewport: MOBILE });
    const problems = collectProblems(page);

    await signUp(page, 'node', uniqueEmail('fa-operator'));
    await page.waitForURL(`${stack.baseUrl}/node-dashboard`);
    const empty = page.getByTestId('servers-empty');
    await empty.waitFor();
    await expectPersian(page, 'empty node dashboard');

    await empty.getByTestId('empty-setup-vps').click();
    const wizard = await dialogNamed(page, fa('node', 'wizard.title'), 'setup wizard');
    await wizard.getByTestId('tier-tier1').getByRole('radio').check();
    await wizard.getByRole('button', { name: fa('node', 'wizard.generate') }).click();
    await wizard.getByTestId('install-command').waitFor();
    await expectPersian(page, 'setup wizard: the install command');

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });
});
