import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { collectProblems, signUpFromLanding, uniqueEmail, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Per-account deposit addresses in the browser, on the real local chain: a new client opens the deposit view, sees
 * their own address with its QR and the currencies it accepts, the demo wallet sends USDC to it
 * with no reference and no exact amount asked, and the view turns to "Credited" by itself (the
 * watcher credits, 'wallet-updated' or the slow poll refresh it); the history lists the transfer.
 */

const suite = browserSuite({ solana: true, depositAddresses: true });
const { openPage } = suite;

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';

describe('deposit to your own address', () => {
  it('a new client pays USDC from the demo wallet to their own address and sees it credited with nothing pressed', async () => {
    const { stack } = suite;
    const page = await openPage();
    const problems = collectProblems(page);
    await signUpFromLanding(page, stack, 'client', uniqueEmail('own-address'));
    await page.waitForURL(`${stack.baseUrl}/client-dashboard`);
    const wallet = page.getByTestId('client-wallet');
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '0.00')).toBe('0.00');

    await wallet.getByRole('button', { name: 'Deposit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    const view = dialog.getByTestId('address-deposit');
    await view.waitFor();
    expect(await view.getByRole('heading').innerText()).toBe('Your own deposit address');

    // The account's own address (not the platform's treasury), its QR, the currencies.
    const address = await view.getByTestId('address-deposit-address').innerText();
    expect(address).toMatch(new RegExp(`^${BASE58}{32,44}$`));
    expect(address).not.toBe(stack.chain!.depositAddress);
    expect(await view.getByTestId('deposit-qr').getAttribute('data-url')).toBe(address);
    const currencies = view.getByTestId('address-deposit-currencies').getByRole('listitem');
    expect(await currencies.allInnerTexts()).toEqual([
      'SOL 1 SOL = 5,143 SSL · minimum 0.01 SOL',
      'USDC 1 USDC = 28.571428 SSL · minimum 1 USDC',
      'USDT 1 USDT = 28.571428 SSL · minimum 1 USDT',
    ]);
    expect(await view.getByTestId('address-deposit-network').innerText()).toContain(
      'Send only on the Solana network.',
    );
    const live = view.getByTestId('address-deposit-live');
    expect(await live.getAttribute('data-state')).toBe('waiting');
    expect(await live.innerText()).toBe('Waiting for your transfer...');
    // The Solana Pay request stays for wallet apps.
    expect(await view.getByTestId('address-deposit-wallet-app').innerText()).toBe(
      'Pay with a wallet app',
    );

    // The demo wallet sends 10 USDC (ten minimums) with no reference; nothing else is pressed.
    const pay = view.getByTestId('address-deposit-demo-USDC');
    expect(await pay.innerText()).toBe('Send 10 USDC from the demo wallet');
    await pay.click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="address-deposit-live"]')
          ?.getAttribute('data-state') === 'credited',
      undefined,
      { timeout: 30_000 },
    );
    const credited = await live.innerText();
    const match = /^Credited: \+(\d+\.\d+) SSL \(10 USDC\)$/.exec(credited);
    expect(match).not.toBeNull();
    // 10 USDC at $0.035 per SSL: 285.71428 SSL, rounded down to the micro-SSL by the server.
    const ssl = Number(match![1]);
    expect(ssl).toBeGreaterThanOrEqual(285.71428);
    expect(ssl).toBeLessThan(285.714286);
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '285.71')).toBe('285.71');

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The history, next to the transactions: amount, rate, status, credit, explorer.
    await wallet.getByRole('tab', { name: 'Transactions' }).click();
    const row = wallet.getByTestId('deposit-history').getByTestId('deposit-transfer').first();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('credited');
    expect(await row.getByTestId('deposit-transfer-amount').innerText()).toBe('10 USDC');
    expect(await row.getByTestId('deposit-transfer-status').textContent()).toBe('Credited');
    expect(await row.innerText()).toContain('1 USDC = 28.571428 SSL');
    expect(await row.getByTestId('deposit-transfer-credit').innerText()).toBe(`+${match![1]} SSL`);
    expect(await row.getByTestId('deposit-transfer-explorer').getAttribute('href')).toMatch(
      new RegExp(`^https://explorer\\.solana\\.com/tx/${BASE58}{86,88}\\?`),
    );

    expect(await ledgerViolations(stack.db.url)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });
});
