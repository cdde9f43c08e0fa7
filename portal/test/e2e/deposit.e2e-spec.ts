import { DEPOSIT_MESSAGES } from '@scn/proto';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import {
  collectProblems,
  registerAccount,
  signUpFromLanding,
  uniqueEmail,
  waitForText,
} from './support/portal';
import { buyFromMarket, insertListedServer, insertOperator } from './support/market';
import { browserSuite } from './support/suite';

/**
 * "Browser: a new client signs up, deposits with the demo wallet, sees the balance
 * rise, buys a server": the real control plane pointed at the local chain (devchain), the demo
 * wallet signing a real Solana Pay transfer, the watcher crediting it, no SQL for the money.
 */

const suite = browserSuite({ solana: true });
const { openPage } = suite;

const SERVER = 'Porto A';

beforeAll(async () => {
  const ownerUuid = await insertOperator(suite.stack);
  await insertListedServer(suite.stack, {
    ownerUuid,
    name: SERVER,
    host: '203.0.113.31',
    port: 30_101,
    location: 'Porto',
  });
});

describe('deposit on the local chain', () => {
  it('a new client signs up, pays with the demo wallet, sees the SSL arrive by itself (twice) and buys a server', async () => {
    const { stack } = suite;
    const chain = stack.chain!;
    const page = await openPage();
    const problems = collectProblems(page);
    await signUpFromLanding(page, stack, 'client', uniqueEmail('depositor'));
    await page.waitForURL(`${stack.baseUrl}/client-dashboard`);
    const wallet = page.getByTestId('client-wallet');
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '0.00')).toBe('0.00');

    await wallet.getByRole('button', { name: 'Deposit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    await dialog.getByLabel('SOL amount').fill('0.01');
    // floor(0.01 x 5143) = 51 SSL at the default rate.
    expect(await dialog.getByTestId('deposit-quote').innerText()).toBe('You will receive 51 SSL');
    await dialog.getByRole('button', { name: "Use the demo wallet's address" }).click();
    await page.waitForFunction(
      (address) =>
        (document.getElementById('deposit-address') as HTMLInputElement | null)?.value === address,
      chain.demoWalletAddress,
    );
    await dialog.getByRole('button', { name: 'Continue to Payment Instructions' }).click();
    const instructions = dialog.getByTestId('deposit-instructions');
    await instructions.waitFor();
    expect(await instructions.getByTestId('deposit-address').innerText()).toBe(
      chain.depositAddress,
    );
    const transferUrl = await instructions.getByTestId('deposit-qr').getAttribute('data-url');
    expect(transferUrl).toMatch(
      new RegExp(`^solana:${chain.depositAddress}\\?amount=0\\.01&reference=[1-9A-HJ-NP-Za-km-z]+`),
    );

    // Nothing paid yet: Verify says so (docs/product/messages.md#market-and-account-messages) and credits nothing.
    await instructions.getByRole('button', { name: 'Verify' }).click();
    expect(await instructions.getByTestId('deposit-error').innerText()).toBe(
      DEPOSIT_MESSAGES.notFound,
    );

    // The demo wallet pays; the watcher credits: the dialog closes by itself with the alert.
    const alert = page.waitForEvent('dialog', { timeout: 20_000 });
    await instructions.getByRole('button', { name: 'Pay with the demo wallet' }).click();
    const shown = await alert;
    expect(shown.message()).toBe(DEPOSIT_MESSAGES.credited('51'));
    await shown.accept();
    await dialog.waitFor({ state: 'detached' });
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '51.00')).toBe('51.00');
    expect(await wallet.getByTestId('wallet-usd').innerText()).toBe('≈ $1.79 USD (1 SSL = $0.035)');

    // The deposit in the transactions, linked to the transaction on the explorer.
    await wallet.getByRole('tab', { name: 'Transactions' }).click();
    const row = wallet.getByTestId('transaction').first();
    expect(await row.getByTestId('transaction-amount').innerText()).toBe('+51.00 SSL');
    const href = await row.getByTestId('transaction-explorer').getAttribute('href');
    expect(href).toMatch(/^https:\/\/explorer\.solana\.com\/tx\/[1-9A-HJ-NP-Za-km-z]{86,88}\?/);
    await wallet.getByRole('tab', { name: 'Overview' }).click();

    // A phone wallet scans the QR while the dialog is closed: the watcher credits, the
    // 'wallet-updated' event refreshes the wallet with nothing pressed (0.002 x 5143 = 10 SSL).
    await wallet.getByRole('button', { name: 'Deposit' }).click();
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    await dialog.getByLabel('SOL amount').fill('0.002');
    await dialog.getByLabel('Your Solana address').fill(chain.demoWalletAddress);
    await dialog.getByRole('button', { name: 'Continue to Payment Instructions' }).click();
    const scanned = await instructions.getByTestId('deposit-qr').getAttribute('data-url');
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await dialog.waitFor({ state: 'detached' });
    const paid = await fetch(`${chain.demoWalletUrl}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: scanned }),
    });
    expect(paid.status).toBe(200);
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '61.00')).toBe('61.00');

    // The market: one server for 10 SSL from the deposited SSL.
    expect((await buyFromMarket(page, stack.baseUrl, [SERVER])).price).toBe('10.00 SSL');
    const qr = page.getByRole('dialog', { name: 'Subscription QR Code' });
    await qr.getByTestId('qr-ready').waitFor();
    await qr.getByRole('button', { name: 'Close dialog' }).click();
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '51.00')).toBe('51.00');

    expect(await ledgerViolations(stack.db.url)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    // The first Verify's "not found" (404) is the only failed request: an answer, not a fault.
    expect(problems.consoleErrors).toEqual([
      'Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    expect(problems.failedRequests).toEqual([
      expect.stringMatching(/^POST .*\/api\/solana\/verify-deposit: HTTP 404$/),
    ]);
  });

  it("a node operator deposits into the node wallet from the Promote dialog's deposit view", async () => {
    const { stack } = suite;
    const node = await registerAccount(stack, 'node');
    const page = await openPage({ account: node });
    await page.goto('/node-dashboard');
    const wallet = page.getByTestId('node-wallet');
    await waitForText(wallet.getByTestId('wallet-balance'), '0.00');
    // "Add SSL to Balance" (docs/product/screens.md#the-shell-and-the-market-screens): the dashboard with the state flag opening the deposit.
    await page.evaluate(() => window.history.replaceState({ openDeposit: true }, ''));
    await page.reload();
    const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    await dialog.getByLabel('SOL amount').fill('0.004');
    await dialog.getByLabel('Your Solana address').fill(stack.chain!.demoWalletAddress);
    await dialog.getByRole('button', { name: 'Continue to Payment Instructions' }).click();
    const alert = page.waitForEvent('dialog', { timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Pay with the demo wallet' }).click();
    const shown = await alert;
    // floor(0.004 x 5143) = 20 SSL, into the node wallet.
    expect(shown.message()).toBe(DEPOSIT_MESSAGES.credited('20'));
    await shown.accept();
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '20.00')).toBe('20.00');
    expect(await ledgerViolations(stack.db.url)).toEqual([]);
  });
});
