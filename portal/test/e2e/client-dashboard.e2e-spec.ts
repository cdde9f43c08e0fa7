import { randomBytes, randomUUID } from 'node:crypto';
import { CLIENT_PLATFORMS, SUBSCRIPTION_ROUTES, type ClientChecksumsResponse } from '@scn/proto';
import type { Page, Route } from 'playwright-core';
import { depositThroughChain } from './support/deposits';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The client dashboard in the browser (docs/product/screens.md#dashboards-and-information-pages Client dashboard, docs/product/states.md#subscription-and-reliability-states subscription states and
 * the wallet load, docs/product/calls.md#dashboard-calls calls, docs/product/messages.md#dashboard-messages errors; docs/product/screens.md#the-shell-and-the-market-screens wallet panel, QR modal, installation
 * instructions) against the real control plane, its database and ledger. Accounts get their SSL
 * through real deposits on the local chain.
 */

const suite = browserSuite({ solana: true });
const { openPage } = suite;

const SERVER_COUNT = 2;
let operator: Account;
const serverIds: string[] = [];

/** A listed server as an enrolled agent leaves it after a fresh report. */
async function insertServer(ownerUuid: string, name: string, port: number): Promise<string> {
  const id = randomUUID();
  await suite.stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       country, location, active_clients, ping_ms, uptime_seconds, reliability_at_report,
       last_report_at)
     VALUES ($1, $2, $3, 'agent', 'tier2', $4, '203.0.113.9', $5, $6::jsonb, 'NL', 'Amsterdam',
       0, 30, 36000, 100, now())`,
    [
      id,
      ownerUuid,
      name,
      randomBytes(32).toString('hex'),
      port,
      JSON.stringify({ security: 'none', network: 'tcp' }),
    ],
  );
  return id;
}

beforeAll(async () => {
  operator = await registerAccount(suite.stack, 'node');
  for (let i = 1; i <= SERVER_COUNT; i += 1) {
    serverIds.push(await insertServer(operator.uuid, `Amsterdam ${i}`, 20_000 + i));
  }
});

/** Buys a subscription through the real API (as the market does), returning its id. */
async function buy(account: Account, ids: string[], billingCycle?: 'hourly'): Promise<string> {
  const response = await fetch(`${suite.stack.baseUrl}${SUBSCRIPTION_ROUTES.create}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.token}` },
    body: JSON.stringify({
      uuid: account.uuid,
      serverIds: ids,
      ...(billingCycle ? { billingCycle } : {}),
    }),
  });
  const body = (await response.json()) as { subscriptionId?: string; message?: string };
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(`create-subscription answered ${response.status}: ${body.message}`);
  }
  return body.subscriptionId!;
}

async function openDashboard(account: Account): Promise<Page> {
  const page = await openPage({ account });
  await page.goto('/client-dashboard');
  await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();
  return page;
}

function wallet(page: Page) {
  return page.getByTestId('client-wallet');
}

describe('client dashboard', () => {
  it('is only for clients: a visitor goes to /, a node operator to /node-dashboard', async () => {
    const visitor = await openPage();
    await visitor.goto('/client-dashboard');
    await visitor.waitForURL(`${suite.stack.baseUrl}/`);

    const node = await openPage({ account: operator });
    await node.goto('/client-dashboard');
    await node.waitForURL(`${suite.stack.baseUrl}/node-dashboard`);
  });

  it("shows the server's balance with its USD value and the transactions", async () => {
    const client = await registerAccount(suite.stack, 'client');
    // Deposits credit whole SSL: 33 SSL is $1.155, which the panel rounds half up to the cent.
    await depositThroughChain(suite.stack, client, 25);
    await depositThroughChain(suite.stack, client, 8);
    const page = await openDashboard(client);
    const problems = collectProblems(page);

    // The server's figure as it is: no client-side "correction" to 100 + sum (docs/product/input-rules.md#dashboard-input).
    expect(await waitForText(wallet(page).getByTestId('wallet-balance'), '33.00')).toBe('33.00');
    expect(await wallet(page).getByTestId('wallet-usd').innerText()).toBe(
      '≈ $1.16 USD (1 SSL = $0.035)',
    );
    // A client wallet has no Withdraw (docs/product/screens.md#the-shell-and-the-market-screens: node wallets only).
    expect(await wallet(page).getByRole('button', { name: 'Withdraw' }).count()).toBe(0);

    await wallet(page).getByRole('tab', { name: 'Transactions' }).click();
    const rows = wallet(page).getByTestId('transaction');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    // Newest first, with docs/product/records.md#market-and-wallet-records's label for the ledger type 'deposit'.
    expect(await rows.nth(0).getByTestId('transaction-type').innerText()).toBe('Deposit');
    const amount = rows.nth(0).getByTestId('transaction-amount');
    expect(await amount.innerText()).toBe('+8.00 SSL');
    expect(await amount.getAttribute('class')).toContain('wallet-amount--positive');
    expect(await rows.nth(1).getByTestId('transaction-type').innerText()).toBe('Deposit');
    expect(await rows.nth(1).getByTestId('transaction-amount').innerText()).toBe('+25.00 SSL');

    await page.getByRole('heading', { name: 'No subscriptions yet' }).waitFor();
    expect(await page.getByTestId('paused-subscriptions').count()).toBe(0);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  });

  it('shows a paid purchase as a red debit and reloads the wallet on server-list-updated', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 30);
    const page = await openDashboard(client);
    await waitForText(wallet(page).getByTestId('wallet-balance'), '30.00');

    // A purchase elsewhere (another tab, the API) emits server-list-updated: the dashboard
    // refetches both the wallet and the lists without a reload.
    await buy(client, [serverIds[0]!]);
    expect(await waitForText(wallet(page).getByTestId('wallet-balance'), '20.00')).toBe('20.00');
    await page.getByTestId('subscription-card').waitFor();

    await wallet(page).getByRole('tab', { name: 'Transactions' }).click();
    const debit = wallet(page).getByTestId('transaction').first();
    expect(await debit.getByTestId('transaction-type').innerText()).toBe('Subscription');
    expect(await debit.getByTestId('transaction-amount').innerText()).toBe('-10.00 SSL');
    expect(await debit.getByTestId('transaction-amount').getAttribute('class')).toContain(
      'wallet-amount--negative',
    );
  });

  it('shows a server its operator deleted as dropped, with the reason and the refund, without a reload', async () => {
    // The deletion refunds the unused time and emits server-list-updated.
    const owner = await registerAccount(suite.stack, 'node');
    const doomed = await insertServer(owner.uuid, 'Rotterdam 1', 20_100);
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 20);
    await buy(client, [doomed, serverIds[1]!]);
    const page = await openDashboard(client);
    const problems = collectProblems(page);
    const card = page.getByTestId('subscription-card');
    await card.waitFor();
    expect(await card.getByTestId('subscription-withdrawn').count()).toBe(0);
    await waitForText(wallet(page).getByTestId('wallet-balance'), '0.00');

    const deleted = await fetch(`${suite.stack.baseUrl}/nodes/server/${owner.uuid}/${doomed}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${owner.token}` },
    });
    expect(deleted.status).toBe(200);

    const dropped = card.getByTestId('withdrawn-server');
    await dropped.waitFor();
    expect(await dropped.getAttribute('data-reason')).toBe('deleted');
    expect(await dropped.getByTestId('withdrawn-reason').innerText()).toBe(
      'deleted by its operator',
    );
    // Seconds after the purchase almost all of its 10 SSL for 30 days is unused: the balance
    // was 0, so it is the refund. Shown with two decimals cut toward zero (lib/money.ts), never
    // rounded up to more than was refunded.
    const answer = await fetch(`${suite.stack.baseUrl}/wallet/client/${client.uuid}`, {
      headers: { Authorization: `Bearer ${client.token}` },
    });
    const { data } = (await answer.json()) as { data: { balanceMicro: string } };
    const refundMicro = BigInt(data.balanceMicro);
    expect(refundMicro > 9_900_000n && refundMicro <= 10_000_000n).toBe(true);
    const shown = `${refundMicro / 1_000_000n}.${String((refundMicro % 1_000_000n) / 10_000n).padStart(2, '0')}`;
    expect(await dropped.getByTestId('withdrawn-refund').innerText()).toBe(`${shown} SSL refunded`);
    expect(await card.getByTestId('subscription-servers').innerText()).toBe('Amsterdam 2 · NL');
    expect(await waitForText(wallet(page).getByTestId('wallet-balance'), shown)).toBe(shown);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  });

  it('retries the wallet 3 times, then creates it, and shows the error with Try Again', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 6);
    const page = await openPage({ account: client });
    const calls: string[] = [];
    const fail = (route: Route) => {
      calls.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: 'Unavailable' }),
      });
    };
    await page.route(`**/wallet/client/${client.uuid}?*`, fail);
    await page.route('**/wallet/create-client-wallet', fail);
    await page.goto('/client-dashboard');
    const error = wallet(page).getByTestId('wallet-error');
    expect(await waitForText(error, 'Failed to create wallet')).toBe('Failed to create wallet');
    expect(calls).toEqual([
      `GET /wallet/client/${client.uuid}`,
      `GET /wallet/client/${client.uuid}`,
      `GET /wallet/client/${client.uuid}`,
      'POST /wallet/create-client-wallet',
    ]);

    await page.unroute(`**/wallet/client/${client.uuid}?*`);
    await page.unroute('**/wallet/create-client-wallet');
    await wallet(page).getByRole('button', { name: 'Try Again' }).click();
    expect(await waitForText(wallet(page).getByTestId('wallet-balance'), '6.00')).toBe('6.00');
  });

  it('Download Client App: checksums from the server, then the installation instructions', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openDashboard(client);
    // The third-party download itself is not this test's business: answer it locally.
    await page
      .context()
      .route('https://github.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'download' }),
      );
    // Hold the checksum call back to see 'Calculating...' first.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/checksums/client', async (route) => {
      await held;
      await route.continue();
    });

    await page.getByRole('button', { name: 'Download Client App' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download Client App' });
    const windows = dialog.getByTestId('platform-windows-x64');
    expect(await windows.getByTestId('checksum').innerText()).toBe('Calculating...');
    release();

    const expected = (await (
      await fetch(`${suite.stack.baseUrl}/checksums/client`)
    ).json()) as ClientChecksumsResponse;
    for (const platform of CLIENT_PLATFORMS) {
      const row = dialog.getByTestId(`platform-${platform}`);
      expect(await waitForText(row.getByTestId('checksum'), expected.data[platform].checksum)).toBe(
        expected.data[platform].checksum,
      );
      expect(await row.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
        expected.data[platform].url,
      );
    }
    expect(await windows.innerText()).toContain('Windows 10/11');
    expect(
      await dialog.getByTestId('platform-ios').getByRole('link').getAttribute('href'),
    ).toContain('apps.apple.com');
    expect(
      await dialog.getByTestId('platform-android').getByRole('link').getAttribute('href'),
    ).toContain('play.google.com');

    const popup = page.context().waitForEvent('page');
    await dialog.getByTestId('download-macos-arm64').click();
    await (await popup).close();
    const instructions = page.getByRole('dialog', { name: 'Installation Instructions' });
    await instructions.waitFor();
    const steps = await instructions.innerText();
    expect(steps).toContain('xattr -cr /Applications/v2rayN.app');
    expect(steps).toContain(`shasum -a 256 ~/Downloads/${expected.data['macos-arm64'].fileName}`);
    expect(steps).toContain('only needed during the testing phase');
    await instructions.getByRole('button', { name: 'I understand' }).click();
    await instructions.waitFor({ state: 'detached' });

    const windowsPopup = page.context().waitForEvent('page');
    await dialog.getByTestId('download-windows-x64').click();
    await (await windowsPopup).close();
    expect(await instructions.innerText()).toContain('Get-FileHash');
  });

  it('lists active and paused subscriptions with the hourly countdown, and says when all are paused', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 50);
    const hourly = await buy(client, [serverIds[0]!], 'hourly');
    const page = await openDashboard(client);

    const card = page.locator(`[data-subscription-id="${hourly}"]`);
    await card.waitFor();
    // Badges are upper-cased by CSS: compare the text content.
    expect(await card.getByTestId('subscription-cycle').textContent()).toBe('Hourly');
    // 100 hours paid upfront: the countdown starts just under 100:00.
    expect(await card.getByTestId('subscription-countdown').innerText()).toMatch(
      /^(100:00|99:5\d)$/,
    );
    expect(await card.getByTestId('subscription-servers').innerText()).toContain('Amsterdam 1');

    // Renewal off: the job will let it expire; the card says so and the server stored it.
    expect(await card.getByTestId('auto-renew').isChecked()).toBe(true);
    // The box follows the server: it changes once the answer is in.
    await card.getByTestId('auto-renew').click();
    await waitForText(page.getByTestId('subscription-notice'), 'will expire at the end');
    await page.waitForFunction(
      (id) =>
        !(
          document.querySelector(
            `[data-subscription-id="${id}"] [data-testid="auto-renew"]`,
          ) as HTMLInputElement | null
        )?.checked,
      hourly,
    );
    const [renew] = await suite.stack.db.query<{ auto_renew: boolean }>(
      `SELECT auto_renew FROM subscriptions WHERE id = $1`,
      [hourly],
    );
    expect(renew).toEqual({ auto_renew: false });
    await card.getByTestId('auto-renew').click();
    await waitForText(page.getByTestId('subscription-notice'), 'renews at the end');

    // Pausing is asked first, with what it costs; Cancel changes nothing.
    await card.getByRole('button', { name: 'Pause' }).click();
    const pauseDialog = page.getByRole('dialog', { name: 'Pause this subscription?' });
    const consequences = await pauseDialog.getByTestId('pause-consequences').innerText();
    expect(consequences).toContain(
      'This uses one of your 2 pauses in any 24 hours (2 are left now)',
    );
    expect(consequences).toContain('resumes by itself after 8 hours');
    await pauseDialog.getByRole('button', { name: 'Cancel' }).click();
    await pauseDialog.waitFor({ state: 'detached' });
    const [still] = await suite.stack.db.query<{ status: string }>(
      `SELECT status FROM subscriptions WHERE id = $1`,
      [hourly],
    );
    expect(still).toEqual({ status: 'active' });
    await card.getByRole('button', { name: 'Pause' }).click();
    await pauseDialog.getByRole('button', { name: 'Pause Subscription' }).click();
    await waitForText(page.getByTestId('subscription-notice'), 'Subscription paused');
    await page.getByTestId('subscriptions-paused-only').waitFor();
    const paused = page
      .getByTestId('paused-subscriptions')
      .locator(`[data-subscription-id="${hourly}"]`);
    await paused.getByRole('button', { name: 'Activate' }).waitFor();
    expect(await paused.getAttribute('data-status')).toBe('paused');
  });

  it('change type: confirms the 10 SSL per server, and pauses with an alert when the balance is short', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 25);
    const id = await buy(client, serverIds); // 20 SSL, 5 SSL left
    const page = await openDashboard(client);
    const card = page.locator(`[data-subscription-id="${id}"]`);
    await card.getByRole('button', { name: 'Switch to hourly' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Billing Type' });
    const text = await dialog.innerText();
    expect(text).toContain('10.00 SSL per server, 20.00 SSL for its 2 servers');
    expect(text).toContain('not refunded');
    await dialog.getByRole('button', { name: 'Switch to hourly' }).click();
    await dialog.waitFor({ state: 'detached' });

    const notice = await waitForText(page.getByTestId('subscription-notice'), 'Insufficient funds');
    expect(notice).toContain('Available balance: 5.00 SSL, required: 20.00 SSL');
    await page
      .getByTestId('paused-subscriptions')
      .locator(`[data-subscription-id="${id}"]`)
      .waitFor();

    // Activating needs the 20 SSL: HTTP 402 and the spec's alert with both amounts.
    const paused = page
      .getByTestId('paused-subscriptions')
      .locator(`[data-subscription-id="${id}"]`);
    await paused.getByRole('button', { name: 'Activate' }).click();
    expect(
      await waitForText(page.getByTestId('subscription-notice'), 'Cannot activate subscription'),
    ).toBe(
      'Cannot activate subscription: Insufficient funds. Your balance: 5.00 SSL, Required: 20.00 SSL',
    );
  });

  it('opens the QR modal from navigation state and highlights the new card for 3 s', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 20);
    const id = await buy(client, serverIds);
    const page = await openPage({ account: client });
    await page.goto('/');
    await page.evaluate((subscriptionId: string) => {
      window.history.pushState(
        {
          newSubscriptionId: subscriptionId,
          showSubscription: { subscriptionId, timestamp: Date.now() },
        },
        '',
        '/client-dashboard',
      );
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, id);

    // The card is highlighted as soon as the lists are in (under the modal).
    const highlighted = `[data-subscription-id="${id}"].subscription-card--highlighted`;
    await page.locator(highlighted).waitFor({ state: 'attached' });

    const dialog = page.getByRole('dialog', { name: 'Subscription QR Code' });
    await dialog.getByTestId('qr-loading').waitFor();
    expect(await dialog.getByTestId('qr-loading').innerText()).toBe(
      'Generating your connection details...',
    );
    await dialog.getByTestId('qr-ready').waitFor();
    expect(await dialog.getByTestId('qr-group-note').innerText()).toBe(
      'Group Subscription (2 Servers)',
    );
    expect(await dialog.getByTestId('qr-position').textContent()).toBe('Server 1 of 2');
    const first = await dialog.getByTestId('qr-connection').inputValue();
    expect(first).toMatch(/^vless:\/\//);
    expect(await dialog.getByTestId('qr-image').getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );

    // Arrows step through the servers and wrap around.
    await dialog.getByTestId('qr-previous').click();
    expect(await dialog.getByTestId('qr-position').textContent()).toBe('Server 2 of 2');
    const second = await dialog.getByTestId('qr-connection').inputValue();
    expect(second).not.toBe(first);
    await dialog.getByTestId('qr-next').click();
    expect(await dialog.getByTestId('qr-connection').inputValue()).toBe(first);

    expect(await dialog.getByTestId('subscription-url').innerText()).toMatch(
      new RegExp(`^${suite.stack.baseUrl}/sub/[A-Za-z0-9_-]+$`),
    );
    const boxHeight = await dialog
      .getByTestId('qr-connection')
      .evaluate((element) => element.getBoundingClientRect().height);
    expect(boxHeight).toBeLessThanOrEqual(80);

    // Closing stays on the dashboard, where the new card is highlighted, then not after 3 s.
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/client-dashboard');
    const card = page.locator(`[data-subscription-id="${id}"]`);
    await page.waitForFunction(
      (selector: string) =>
        !document.querySelector(selector)?.classList.contains('subscription-card--highlighted'),
      `[data-subscription-id="${id}"]`,
      { timeout: 5_000 },
    );
    expect(await card.getAttribute('class')).not.toContain('subscription-card--highlighted');
    // The state was consumed: a reload does not open the modal again.
    await page.reload();
    await card.waitFor();
    await page.waitForTimeout(300);
    expect(await dialog.count()).toBe(0);
  });

  it('draws the QR in the browser without the server codes, and says when a subscription is missing', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 10);
    const id = await buy(client, [serverIds[1]!]);
    const page = await openDashboard(client);
    await page.route('**/qr-codes', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: 'Internal server error' }),
      }),
    );
    await page.locator(`[data-subscription-id="${id}"]`).getByTestId('show-qr').click();
    const dialog = page.getByRole('dialog', { name: 'Subscription QR Code' });
    await dialog.getByTestId('qr-ready').waitFor();
    const image = dialog.getByTestId('qr-image');
    expect(await image.getAttribute('data-source')).toBe('browser');
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await image.getAttribute('width')).toBe('180');
    // One server: no arrows, no position badge.
    expect(await dialog.getByTestId('qr-next').count()).toBe(0);
    expect(await dialog.getByTestId('qr-position').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close dialog' }).click();

    // A purchase that the lists do not hold (another account's id, a stale link).
    await page.evaluate((subscriptionId: string) => {
      window.history.pushState(
        { showSubscription: { subscriptionId, timestamp: Date.now() } },
        '',
        '/client-dashboard',
      );
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, randomUUID());
    await page.reload();
    const error = dialog.getByTestId('qr-error');
    expect(await waitForText(error.getByRole('alert'), 'Subscription data is missing')).toBe(
      'Subscription data is missing. Please try again or contact support.',
    );
    await error.getByRole('button', { name: 'Try Again' }).click();
    await dialog.getByTestId('qr-loading').waitFor();
    await dialog.getByTestId('qr-error').waitFor();
  });

  it('delete: the server refusal and a lost request each get their message', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 10);
    const id = await buy(client, [serverIds[0]!]);
    const page = await openDashboard(client);
    const card = page.locator(`[data-subscription-id="${id}"]`);
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });

    await page.route(`**${SUBSCRIPTION_ROUTES.subscription(client.uuid, id)}`, (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: 'Busy' }),
      }),
    );
    await card.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete Subscription' }).click();
    expect(
      await waitForText(confirm.getByTestId('delete-subscription-error'), 'Failed to delete'),
    ).toBe('Failed to delete subscription: Busy');

    await page.unroute(`**${SUBSCRIPTION_ROUTES.subscription(client.uuid, id)}`);
    await page.route(`**${SUBSCRIPTION_ROUTES.subscription(client.uuid, id)}`, (route) =>
      route.abort('connectionfailed'),
    );
    await confirm.getByRole('button', { name: 'Delete Subscription' }).click();
    expect(
      await waitForText(confirm.getByTestId('delete-subscription-error'), 'Error deleting'),
    ).toMatch(/^Error deleting subscription: /);
    await page.unroute(`**${SUBSCRIPTION_ROUTES.subscription(client.uuid, id)}`);
    await confirm.getByRole('button', { name: 'Delete Subscription' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'No subscriptions yet' }).waitFor();
  });
});

describe('node dashboard wallet', () => {
  it('shows frozen rewards and a Withdraw button that is suspended', async () => {
    const node = await registerAccount(suite.stack, 'node');
    await depositThroughChain(suite.stack, node, 12);
    // A frozen operator reward as a sale leaves it: 10 SSL frozen for 60 days.
    const [external] = await suite.stack.db.query<{ id: string }>(
      `SELECT id FROM ledger_accounts WHERE kind = 'external'`,
    );
    const [target] = await suite.stack.db.query<{ id: string }>(
      `SELECT id FROM ledger_accounts WHERE kind = 'node_wallet' AND owner_uuid = $1`,
      [node.uuid],
    );
    const transactionId = randomUUID();
    await suite.stack.db.query(
      `INSERT INTO ledger_transactions (id, type, initiator_uuid, description)
       VALUES ($1, 'subscription_reward', $2, 'Reward')`,
      [transactionId, node.uuid],
    );
    await suite.stack.db.query(
      `INSERT INTO ledger_entries (transaction_id, account_id, amount_micro, frozen_until)
       VALUES ($1, $2, -10000000, NULL), ($1, $3, 10000000, now() + interval '60 days')`,
      [transactionId, external!.id, target!.id],
    );

    const page = await openPage({ account: node });
    await page.goto('/node-dashboard');
    const panel = page.getByTestId('node-wallet');
    expect(await waitForText(panel.getByTestId('wallet-balance'), '22.00')).toBe('22.00');
    expect(await panel.getByTestId('wallet-frozen').innerText()).toBe('10.00 SSL');
    expect(await panel.getByTestId('wallet-available').innerText()).toBe('12.00 SSL');
    expect(await panel.getByTestId('wallet-frozen-list').innerText()).toMatch(/10\.00 SSL until /);

    const withdraw = panel.getByRole('button', { name: 'Withdraw' });
    expect(await withdraw.isDisabled()).toBe(true);
    const hover = panel.getByTestId('withdraw-suspended');
    expect(await hover.getAttribute('title')).toBe('Suspended');
    await hover.hover();
    const tooltip = await hover.evaluate((element) => getComputedStyle(element, '::after').content);
    expect(tooltip).toBe('"Suspended"');

    await panel.getByRole('tab', { name: 'Transactions' }).click();
    const reward = panel.getByTestId('transaction').first();
    expect(await reward.getByTestId('transaction-type').innerText()).toBe('Subscription Reward');
    expect(await reward.innerText()).toContain('frozen until');
  });
});

describe('client wallet in Persian', () => {
  it("words a real deposit's row in Persian from its code, digits and rate in the reader's numbers", async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 7);
    // What the control plane stored for it: a code and its values, not only English.
    const [stored] = await suite.stack.db.query<{
      description: string;
      description_code: string;
      description_values: { sol: string; sslPerSol: number };
    }>(
      `SELECT t.description, t.description_code, t.description_values
       FROM ledger_transactions t WHERE t.type = 'deposit' AND t.initiator_uuid = $1`,
      [client.uuid],
    );
    expect(stored!.description_code).toBe('sol_deposit');
    const { sol, sslPerSol } = stored!.description_values;
    expect(stored!.description).toBe(`SOL deposit: ${sol} SOL at ${sslPerSol} SSL/SOL`);

    const page = await openPage({ account: client, locale: 'fa-IR' });
    const problems = collectProblems(page);
    await page.goto('/client-dashboard');
    const panel = page.getByTestId('client-wallet');
    await panel.getByRole('tab', { name: 'تراکنش‌ها' }).click();
    const row = panel.getByTestId('transaction').first();
    await row.waitFor();
    const description = row.getByTestId('transaction-description');
    expect(await description.getAttribute('data-code')).toBe('sol_deposit');
    const fa = (value: string | number, digits = 9) =>
      new Intl.NumberFormat('fa-IR', { maximumFractionDigits: digits }).format(
        value as unknown as number,
      );
    expect(await description.innerText()).toBe(
      `واریز SOL: ${fa(sol)} SOL با نرخ ${fa(sslPerSol, 0)} SSL برای هر SOL`,
    );
    expect(await row.getByTestId('transaction-type').innerText()).toBe('واریز');
    expect(await row.innerText()).not.toMatch(/deposit|at \d/i);
    expect(problems.pageErrors).toEqual([]);
  });
});
