import {
  DEPOSIT_MESSAGES,
  DEPOSIT_ROUTES,
  type DepositRequest,
  type SolanaConfig,
  type WalletResponse,
} from '@scn/proto';
import type { Locator, Page, Route } from 'playwright-core';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The deposit dialog against the contract (docs/product/screens.md#the-shell-and-the-market-screens, docs/product/states.md#market-and-account-states, docs/product/input-rules.md#market-and-account-input, docs/product/messages.md#market-and-account-messages): the deposit
 * endpoints and the demo wallet are answered by the test, so every step and message of the
 * portal is checked whatever the chain does. deposit.e2e-spec.ts pays on the real local chain.
 * This stack has no Solana settings: one test checks the control plane's own refusal.
 */

const suite = browserSuite();
const { openPage } = suite;

const DEPOSIT_ADDRESS = 'GokivDYuQXPZCWRkwMhdH2h91KpDQXBEmpgBgs55bnpH';
const USER_ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const REFERENCE = 'Ref1111111111111111111111111111111111111111';
const SIGNATURE = `5${'j'.repeat(87)}`;
/**
 * Answered by page.route. Same origin here: the portal's Content-Security-Policy allows another
 * origin only when the control plane names it (deposit.e2e-spec.ts covers the real one).
 */
const demoWalletUrl = () => `${suite.stack.baseUrl}/test-demo-wallet`;

const config = (): SolanaConfig => ({
  success: true,
  depositAddress: DEPOSIT_ADDRESS,
  conversionRate: 5143,
  sslTokenPrice: 0.035,
  solPriceUsd: 180,
  lastUpdated: new Date().toISOString(),
  cluster: 'localnet',
  rpcUrl: 'http://127.0.0.1:8899',
  quoteValidSeconds: 1800,
  explorerTxUrl: 'https://explorer.solana.com/tx/{signature}?cluster=custom',
  demoWalletUrl: demoWalletUrl(),
});

function depositRequest(account: Account, solAmount: string): DepositRequest {
  const transferUrl = `solana:${DEPOSIT_ADDRESS}?amount=${solAmount}&reference=${REFERENCE}&label=SCN`;
  return {
    id: '0b0d6f7e-5f7e-4c59-9b8e-2f8a7f1d6c01',
    status: 'open',
    walletType: account.userType === 'client' ? 'client_wallet' : 'node_wallet',
    depositAddress: DEPOSIT_ADDRESS,
    userAddress: USER_ADDRESS,
    reference: REFERENCE,
    solAmount,
    lamports: '100000000',
    conversionRate: 5143,
    sslCreditMicro: '514000000',
    transferUrl,
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
    signature: null,
    creditedAt: null,
  };
}

/** Words allowed in Latin letters in Persian text (docs/i18n.md). */
const LATIN_ALLOWED = new Set(['SSL', 'SOL', 'Solana', 'QR', 'Phantom', 'Solflare', 'SCN']);

/**
 * Latin-script words shown in `root` beyond the allowed names, leaving out what is left to
 * right on purpose (addresses, codes: `dir="ltr"`), form fields and the panel's heading (the
 * dashboard's own words, given by the route).
 */
async function latinWords(root: Locator): Promise<string[]> {
  const text = await root.evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    for (const skip of copy.querySelectorAll('[dir="ltr"], input, h2')) skip.remove();
    return copy.textContent ?? '';
  });
  return (text.match(/[A-Za-z][A-Za-z0-9-]*/g) ?? []).filter((word) => !LATIN_ALLOWED.has(word));
}

const json = (route: Route, body: unknown, status = 200, headers: Record<string, string> = {}) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body), headers });

/** The demo wallet is another origin: it allows any (as the local chain's does). */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept',
};

/** The deposit endpoints as the contract says, recording what the portal sent. */
async function answerDeposits(page: Page, account: Account) {
  const sent: { requests: unknown[]; verifies: unknown[]; demo: unknown[] } = {
    requests: [],
    verifies: [],
    demo: [],
  };
  let request: DepositRequest | null = null;
  let paid = false;
  await page.route(`**${DEPOSIT_ROUTES.apiConfig}`, (route) => json(route, config()));
  await page.route(`**${DEPOSIT_ROUTES.requests}`, (route) => {
    const body = route.request().postDataJSON() as { solAmount: string };
    sent.requests.push(body);
    request = depositRequest(account, body.solAmount);
    return json(route, { success: true, request }, 201);
  });
  await page.route(`**${DEPOSIT_ROUTES.requests}/*`, (route) =>
    json(route, {
      success: true,
      request: paid ? { ...request, status: 'credited', signature: SIGNATURE } : request,
    }),
  );
  await page.route(`**${DEPOSIT_ROUTES.verify}`, (route) => {
    sent.verifies.push(route.request().postDataJSON());
    return json(route, { verified: false, message: '' });
  });
  await page.route(`${demoWalletUrl()}/pay`, (route) => {
    if (route.request().method() === 'OPTIONS') {
      return route.fulfill({ status: 204, headers: CORS });
    }
    sent.demo.push(route.request().postDataJSON());
    paid = true;
    return json(route, { signature: SIGNATURE }, 200, CORS);
  });
  return sent;
}

describe('deposit dialog (against the contract)', () => {
  it('client: form rules, instructions with the level-H QR, Verify, Back to Edit Details, the demo wallet, the alert and the explorer link', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client });
    const sent = await answerDeposits(page, client);
    await page.goto('/client-dashboard');
    const wallet = page.getByTestId('client-wallet');
    await waitForText(wallet.getByTestId('wallet-balance'), '0.00');

    await wallet.getByRole('button', { name: 'Deposit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
    // Cards are shown as coming later, never as an equal choice.
    expect(await dialog.getByRole('button', { name: /Credit\/Debit Card/ }).isDisabled()).toBe(
      true,
    );
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    const amount = dialog.getByLabel('SOL amount');
    const address = dialog.getByLabel('Your Solana address');
    const next = dialog.getByRole('button', { name: 'Continue to Payment Instructions' });
    // docs/product/input-rules.md#market-and-account-input: min 0.001, step 0.001; Continue waits for both fields.
    expect(await amount.getAttribute('min')).toBe('0.001');
    expect(await amount.getAttribute('step')).toBe('0.001');
    expect(await next.isDisabled()).toBe(true);
    await amount.fill('0.0001');
    expect(await next.isDisabled()).toBe(true);
    await address.fill(USER_ADDRESS);
    await next.click();
    expect(await dialog.getByTestId('deposit-error').innerText()).toBe(
      DEPOSIT_MESSAGES.invalidAmount,
    );
    await amount.fill('0.1');
    // Typing makes the refusal stale: it goes.
    expect(await dialog.getByTestId('deposit-error').count()).toBe(0);
    // The server's quote: floor(0.1 x 5143) SSL.
    expect(await dialog.getByTestId('deposit-quote').innerText()).toBe('You will receive 514 SSL');
    await address.fill('not-a-solana-address');
    await next.click();
    expect(await dialog.getByTestId('deposit-error').innerText()).toBe(
      DEPOSIT_MESSAGES.invalidAddress,
    );
    await address.fill(USER_ADDRESS);
    await next.click();

    const instructions = dialog.getByTestId('deposit-instructions');
    await instructions.waitFor();
    expect(sent.requests).toEqual([{ solAmount: '0.1', userAddress: USER_ADDRESS }]);
    expect(await instructions.getByTestId('deposit-amount').innerText()).toBe('0.1 SOL');
    expect(await instructions.getByTestId('deposit-address').innerText()).toBe(DEPOSIT_ADDRESS);
    expect(await instructions.getByTestId('deposit-credit').innerText()).toBe('514 SSL');
    const qr = instructions.getByTestId('deposit-qr');
    await qr.waitFor();
    expect(await qr.getAttribute('data-level')).toBe('H');
    expect(await qr.getAttribute('data-url')).toBe(depositRequest(client, '0.1').transferUrl);
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);

    // Nothing on chain yet: docs/product/messages.md#market-and-account-messages's message.
    await instructions.getByRole('button', { name: 'Verify' }).click();
    expect(await waitForText(instructions.getByTestId('deposit-error'), 'Transaction')).toBe(
      DEPOSIT_MESSAGES.notFound,
    );
    expect(sent.verifies).toEqual([
      {
        userAddress: USER_ADDRESS,
        expectedAmount: '0.1',
        userId: client.uuid,
        requestId: depositRequest(client, '0.1').id,
      },
    ]);

    // Back to Edit Details keeps what was typed.
    await instructions.getByRole('button', { name: 'Back to Edit Details' }).click();
    expect(await amount.inputValue()).toBe('0.1');
    expect(await address.inputValue()).toBe(USER_ADDRESS);
    await next.click();
    await instructions.waitFor();

    // The demo wallet pays; the request turns credited (the watcher): the dialog closes alone.
    // From here the wallet shows what the server would: the credit and its signature.
    const credited: WalletResponse = {
      success: true,
      data: {
        walletType: 'client',
        balanceMicro: '514000000',
        frozenAmountMicro: '0',
        availableMicro: '514000000',
        frozenAmounts: [],
        walletAddress: DEPOSIT_ADDRESS,
        transactions: [
          {
            id: 'tx-1',
            type: 'deposit',
            amountMicro: '514000000',
            timestamp: new Date().toISOString(),
            subscriptionId: null,
            serverCount: null,
            duration: null,
            description: '0.1 SOL',
            frozenUntil: null,
            signature: SIGNATURE,
          },
        ],
        hasMore: false,
        lastUpdated: new Date().toISOString(),
      },
    };
    await page.route('**/wallet/client/*', (route) => json(route, credited));
    const alert = page.waitForEvent('dialog');
    await instructions.getByRole('button', { name: 'Pay with the demo wallet' }).click();
    const shown = await alert;
    expect(shown.message()).toBe(DEPOSIT_MESSAGES.credited('514'));
    await shown.accept();
    await dialog.waitFor({ state: 'detached' });
    expect(sent.demo).toEqual([{ url: depositRequest(client, '0.1').transferUrl }]);
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '514.00')).toBe('514.00');
    expect(await wallet.getByTestId('wallet-usd').innerText()).toContain('$17.99');
    // The address is the platform's, named so, never "Wallet address".
    expect(await wallet.getByTestId('wallet-deposit-address').innerText()).toBe(
      `Deposit address (the platform's): ${DEPOSIT_ADDRESS}`,
    );
    expect(await wallet.getByText('Wallet address').count()).toBe(0);

    await wallet.getByRole('tab', { name: 'Transactions' }).click();
    const link = wallet.getByTestId('transaction-explorer');
    expect(await link.getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=custom`,
    );

    // A new deposit starts from empty fields (docs/product/states.md#market-and-account-states: the fields clear).
    await wallet.getByRole('button', { name: 'Deposit' }).click();
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    expect(await dialog.getByLabel('SOL amount').inputValue()).toBe('');
  });

  it("node: 'Add SSL to Balance' opens the node wallet's deposit view", async () => {
    const node = await registerAccount(suite.stack, 'node');
    const page = await openPage({ account: node });
    const sent = await answerDeposits(page, node);
    await page.goto('/node-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Node Dashboard' }).waitFor();
    // What the Promote dialog's button does (docs/product/screens.md#the-shell-and-the-market-screens): the dashboard with a state flag.
    await page.evaluate(() => window.history.replaceState({ openDeposit: true }, ''));
    await page.reload();
    const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    await dialog.getByLabel('SOL amount').fill('0.1');
    await dialog.getByLabel('Your Solana address').fill(USER_ADDRESS);
    await dialog.getByRole('button', { name: 'Continue to Payment Instructions' }).click();
    await dialog.getByTestId('deposit-instructions').waitFor();
    expect(sent.requests).toHaveLength(1);
  });

  it('says the payment system failed when the Solana config cannot be loaded, and Try Again loads it', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client });
    await page.route(`**${DEPOSIT_ROUTES.apiConfig}`, (route) =>
      json(route, { success: false, message: DEPOSIT_MESSAGES.initFailed }, 503),
    );
    await page.goto('/client-dashboard');
    await page.getByTestId('client-wallet').getByRole('button', { name: 'Deposit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    expect(await dialog.getByTestId('deposit-init-failed').innerText()).toBe(
      DEPOSIT_MESSAGES.initFailed,
    );
    await page.unroute(`**${DEPOSIT_ROUTES.apiConfig}`);
    await page.route(`**${DEPOSIT_ROUTES.apiConfig}`, (route) => json(route, config()));
    await dialog.getByRole('button', { name: 'Try Again' }).click();
    await dialog.getByLabel('SOL amount').waitFor();
  });

  it('card payments are a disabled choice marked coming later, and SOL deposits say so when the server has no Solana settings', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client });
    await page.goto('/client-dashboard');
    await page.getByTestId('client-wallet').getByRole('button', { name: 'Deposit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
    // Shown, disabled and marked; clicking it leads nowhere.
    const card = dialog.getByRole('button', { name: /Credit\/Debit Card/ });
    expect(await card.isDisabled()).toBe(true);
    expect(await card.getByTestId('deposit-card-later').textContent()).toBe('Coming later');
    expect(await card.textContent()).toContain(
      'Card payments are not available yet. Deposit with Solana (SOL) for now.',
    );
    await card.click({ force: true });
    expect(await dialog.getByLabel('Amount (USD)').count()).toBe(0);
    await dialog.getByText('Choose how to add SSL to your balance.').waitFor();

    // Not answered by the test: this stack has no Solana settings, so the control plane's own
    // /api/solana/config refuses (docs/product/messages.md#market-and-account-messages).
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
    expect(
      await waitForText(
        dialog.getByTestId('deposit-init-failed'),
        'Failed to initialize payment system',
      ),
    ).toBe('Failed to initialize payment system');
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: /Cryptocurrency/ }).waitFor();
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows the wallet in Persian: right to left, Persian words and digits, the address left to right', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client, locale: 'fa-IR' });
    const problems = collectProblems(page);
    await answerDeposits(page, client);
    const wallet: WalletResponse = {
      success: true,
      data: {
        walletType: 'client',
        balanceMicro: '1234500000',
        frozenAmountMicro: '0',
        availableMicro: '1234500000',
        frozenAmounts: [],
        walletAddress: DEPOSIT_ADDRESS,
        transactions: [
          {
            id: 'tx-1',
            type: 'deposit',
            amountMicro: '514000000',
            timestamp: new Date().toISOString(),
            subscriptionId: null,
            serverCount: null,
            duration: null,
            description: null,
            frozenUntil: null,
            signature: null,
          },
          {
            id: 'tx-2',
            type: 'subscription',
            amountMicro: '-10000000',
            timestamp: new Date().toISOString(),
            subscriptionId: null,
            serverCount: 2,
            duration: '1month',
            description: null,
            frozenUntil: null,
            signature: null,
          },
        ],
        hasMore: false,
        lastUpdated: new Date().toISOString(),
      },
    };
    await page.route('**/wallet/client/*', (route) => json(route, wallet));
    await page.goto('/client-dashboard');
    const panel = page.getByTestId('client-wallet');
    expect(await waitForText(panel.getByTestId('wallet-balance'), '۱٬۲۳۴٫۵۰')).toBe('۱٬۲۳۴٫۵۰');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await panel.getByTestId('wallet-usd').innerText()).toBe(
      '≈ ۴۳٫۲۱ دلار (هر SSL = ۰٫۰۳۵ دلار)',
    );
    expect(await panel.getByTestId('wallet-deposit-address').innerText()).toBe(
      `آدرس واریز (متعلق به پلتفرم): ${DEPOSIT_ADDRESS}`,
    );
    expect(await panel.getByTestId('wallet-address').getAttribute('dir')).toBe('ltr');
    expect(await latinWords(panel)).toEqual([]);

    await panel.getByRole('tab', { name: 'تراکنش‌ها' }).click();
    const rows = panel.getByTestId('transaction');
    await rows.first().waitFor();
    expect(await rows.nth(0).getByTestId('transaction-type').innerText()).toBe('واریز');
    expect(await rows.nth(0).getByTestId('transaction-amount').innerText()).toBe('+۵۱۴٫۰۰ SSL');
    expect(await rows.nth(1).getByTestId('transaction-type').innerText()).toBe('اشتراک');
    expect(await rows.nth(1).innerText()).toContain('۲ سرور · ۱ ماه');
    expect(await latinWords(panel)).toEqual([]);

    await panel.getByRole('button', { name: 'واریز' }).click();
    const dialog = page.getByRole('dialog', { name: 'واریز SSL' });
    const card = dialog.getByRole('button', { name: /کارت بانکی/ });
    expect(await card.isDisabled()).toBe(true);
    expect(await card.getByTestId('deposit-card-later').textContent()).toBe('به‌زودی');
    await dialog.getByRole('button', { name: /ارز دیجیتال/ }).click();
    await dialog.getByLabel('مقدار SOL').fill('0.1');
    expect(await dialog.getByTestId('deposit-quote').innerText()).toBe('دریافت می‌کنید: ۵۱۴ SSL');
    await dialog.getByLabel('آدرس Solana شما').fill(USER_ADDRESS);
    await dialog.getByRole('button', { name: 'ادامه به راهنمای پرداخت' }).click();
    const instructions = dialog.getByTestId('deposit-instructions');
    await instructions.waitFor();
    expect(await instructions.getByTestId('deposit-amount').innerText()).toBe('۰٫۱ SOL');
    expect(await instructions.getByTestId('deposit-credit').innerText()).toBe('۵۱۴ SSL');
    expect(await instructions.getByTestId('deposit-address').getAttribute('dir')).toBe('ltr');
    expect(await latinWords(dialog)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });
});
