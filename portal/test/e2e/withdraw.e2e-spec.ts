import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { WITHDRAWAL_MESSAGES } from '@scn/proto';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { depositThroughChain } from './support/deposits';
import { collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * "Browser: a withdrawal (setting on) reaches the local chain": an operator
 * funded by a real deposit into the node wallet (deposits are not frozen) opens Withdraw, sees the
 * 25% fee and the SOL received before confirming, and follows the payout until it is confirmed;
 * the destination's balance on the chain is exactly the quoted lamports.
 */

const suite = browserSuite({ solana: true, withdrawals: true });
const { openPage } = suite;

describe('withdraw on the local chain', () => {
  it('an operator withdraws to a fresh address and sees it confirmed on chain', async () => {
    const { stack } = suite;
    const operator = await registerAccount(stack, 'node');
    await depositThroughChain(stack, operator, 200);
    const destination = Keypair.generate().publicKey.toBase58();

    const page = await openPage({ account: operator });
    const problems = collectProblems(page);
    await page.goto('/node-dashboard');
    const wallet = page.getByTestId('node-wallet');
    expect(await waitForText(wallet.getByTestId('wallet-available'), '200.00 SSL')).toBe(
      '200.00 SSL',
    );
    await wallet.getByTestId('withdraw').click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw SSL' });
    expect(await dialog.getByTestId('withdraw-available').innerText()).toBe('200.00 SSL');

    // The form's own checks say the server's messages, and nothing is sent.
    await dialog.getByLabel('Amount (SSL)').fill('5');
    await dialog.getByLabel('Solana address to receive SOL').fill(destination);
    await dialog.getByRole('button', { name: 'Review withdrawal' }).click();
    expect(await dialog.getByTestId('withdraw-error').innerText()).toBe(
      WITHDRAWAL_MESSAGES.belowMinimum('10.00'),
    );
    await dialog.getByLabel('Amount (SSL)').fill('250');
    await dialog.getByRole('button', { name: 'Review withdrawal' }).click();
    expect(await dialog.getByTestId('withdraw-error').innerText()).toBe(
      WITHDRAWAL_MESSAGES.overAvailable('200.00'),
    );

    // 100 SSL: 25 SSL fee, 75 SSL paid as floor(75 / 5143 SOL) = 0.014582928 SOL.
    await dialog.getByLabel('Amount (SSL)').fill('100');
    expect(await dialog.getByTestId('withdraw-quote').innerText()).toBe(
      'Fee 25.00 SSL · you receive 0.014582928 SOL',
    );
    // A confirmation states the 25% fee and the net before anything is sent.
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/withdraw')) {
        posted.push(request.url());
      }
    });
    await dialog.getByRole('button', { name: 'Review withdrawal' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm withdrawal' });
    const review = confirm.getByTestId('withdraw-review');
    expect(await review.getByTestId('withdraw-consequence').innerText()).toBe(
      'Of the 100.00 SSL you withdraw, a 25% protocol fee of 25.00 SSL is taken: you receive 75.00 SSL, paid as 0.014582928 SOL. A withdrawal cannot be undone.',
    );
    expect(await review.getByTestId('withdraw-amount').innerText()).toBe('100.00 SSL');
    expect(await review.getByText('Protocol fee (25%)').count()).toBe(1);
    expect(await review.getByTestId('withdraw-fee').innerText()).toBe('25.00 SSL');
    expect(await review.getByTestId('withdraw-receive').innerText()).toBe(
      '0.014582928 SOL (75.00 SSL)',
    );
    expect(await review.getByTestId('withdraw-rate').innerText()).toBe('1 SOL = 5,143 SSL');
    expect(await review.getByTestId('withdraw-to').innerText()).toBe(destination);
    // Cancel is focused first, and cancelling sends nothing: the form is back as it was.
    const cancel = confirm.getByRole('button', { name: 'Cancel' });
    expect(await cancel.evaluate((element) => element === document.activeElement)).toBe(true);
    await cancel.click();
    await confirm.waitFor({ state: 'detached' });
    expect(posted).toEqual([]);
    expect(await dialog.getByLabel('Amount (SSL)').inputValue()).toBe('100');
    expect(await wallet.getByTestId('wallet-available').innerText()).toBe('200.00 SSL');

    await dialog.getByRole('button', { name: 'Review withdrawal' }).click();
    await confirm.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(posted).toHaveLength(1);
    expect(await dialog.getByTestId('withdraw-success').innerText()).toBe(
      `Successfully withdrew 100 SSL to ${destination}`,
    );
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(await waitForText(wallet.getByTestId('wallet-balance'), '100.00')).toBe('100.00');
    const row = wallet.locator('[data-testid="withdrawal"][data-status="confirmed"]');
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getByTestId('withdrawal-status').textContent()).toBe('Confirmed');
    expect(await row.innerText()).toContain(`0.014582928 SOL to ${destination}`);
    const href = await row.getByTestId('withdrawal-explorer').getAttribute('href');
    expect(href).toMatch(
      /^https:\/\/explorer\.solana\.com\/tx\/[1-9A-HJ-NP-Za-km-z]{86,88}\?cluster=custom&customUrl=/,
    );

    const connection = new Connection(stack.chain!.url, 'confirmed');
    expect(await connection.getBalance(new PublicKey(destination))).toBe(14_582_928);

    // The ledger's withdrawal in the transactions: -100 SSL.
    await wallet.getByRole('tab', { name: 'Transactions' }).click();
    const entry = wallet.getByTestId('transaction').first();
    expect(await entry.getByTestId('transaction-type').innerText()).toBe('Withdrawal');
    expect(await entry.getByTestId('transaction-amount').innerText()).toBe('-100.00 SSL');
    expect(await ledgerViolations(stack.db.url)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });
});
