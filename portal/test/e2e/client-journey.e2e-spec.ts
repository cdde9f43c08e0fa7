import { randomBytes, randomUUID } from 'node:crypto';
import { SUBSCRIPTION_ROUTES, type SubscriptionsResponse } from '@scn/proto';
import type { Locator, Page } from 'playwright-core';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { depositThroughChain } from './support/deposits';
import {
  type Account,
  collectProblems,
  signUpFromLanding,
  uniqueEmail,
  waitForText,
} from './support/portal';
import { browserSuite } from './support/suite';

/**
 * issue 4 §5 "Browser: a client signs up, is given SSL (since issue 17 a real deposit on the
 * local chain, paid by its demo wallet), selects two servers, pays, sees the QR modal, copies the link, pauses and
 * activates, deletes", all against the real control plane, database and ledger.
 */

const suite = browserSuite({ solana: true });
const { openPage } = suite;

const SERVERS = ['Lisbon A', 'Lisbon B'] as const;

/** A listed server as an enrolled agent leaves it after a fresh report. */
async function insertServer(ownerUuid: string, name: string, port: number): Promise<void> {
  await suite.stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       country, location, active_clients, ping_ms, uptime_seconds, reliability_at_report,
       last_report_at)
     VALUES ($1, $2, $3, 'agent', 'tier2', $4, '203.0.113.21', $5, $6::jsonb, 'PT', 'Lisbon', 0,
       25, 72000, 100, now())`,
    [
      randomUUID(),
      ownerUuid,
      name,
      randomBytes(32).toString('hex'),
      port,
      JSON.stringify({ security: 'none', network: 'tcp' }),
    ],
  );
}

beforeAll(async () => {
  const operator = randomUUID();
  await suite.stack.db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name)
     VALUES ($1, $2, 'node', 'x', 'operator')`,
    [operator, `${operator}@example.com`],
  );
  await insertServer(operator, SERVERS[0], 30_001);
  await insertServer(operator, SERVERS[1], 30_002);
});

function marketCard(page: Page, name: string): Locator {
  return page
    .getByTestId('market-server-card')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
}

async function subscriptionsOf(uuid: string, token: string): Promise<SubscriptionsResponse> {
  const response = await fetch(`${suite.stack.baseUrl}${SUBSCRIPTION_ROUTES.active(uuid)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await response.json()) as SubscriptionsResponse;
}

describe('client journey', () => {
  it('signs up, gets SSL, buys two servers, copies the link, pauses, activates and deletes', async () => {
    const { stack } = suite;
    const page = await openPage();
    const problems = collectProblems(page);
    const email = uniqueEmail('client-journey');

    // Sign up as a client from the landing page: code by SMTP, terms, the client dashboard.
    await signUpFromLanding(page, stack, 'client', email);
    await page.waitForURL(`${stack.baseUrl}/client-dashboard`);
    const wallet = page.getByTestId('client-wallet');
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '0.00')).toBe('0.00');
    await page.getByRole('heading', { name: 'No subscriptions yet' }).waitFor();

    const session = await page.evaluate(() => ({
      user: JSON.parse(localStorage.getItem('user') ?? '{}') as { uuid: string },
      token: localStorage.getItem('token') ?? '',
    }));
    const uuid = session.user.uuid;

    // A real deposit of 30 SSL on the local chain; the dashboard shows it by itself.
    const account: Account = {
      uuid,
      email,
      userType: 'client',
      password: '',
      token: session.token,
    };
    await depositThroughChain(stack, account, 30);
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '30.00')).toBe('30.00');

    // The market: select both servers and pay 20 SSL.
    await page.getByRole('link', { name: 'Browse Servers' }).first().click();
    await page.waitForURL(`${stack.baseUrl}/servers`);
    for (const name of SERVERS) await marketCard(page, name).getByTestId('market-connect').click();
    await waitForText(page.getByTestId('selection-count'), '2 servers selected');
    await page
      .getByRole('region', { name: 'Selected servers' })
      .getByRole('button', { name: 'Create Subscription' })
      .click();
    const create = page.getByRole('dialog', { name: 'Create Network Subscription' });
    await create.getByRole('button', { name: 'Create Subscription' }).click();
    const payment = page.getByRole('dialog', { name: 'Payment Confirmation' });
    expect(await payment.getByTestId('payment-price').innerText()).toBe('20.00 SSL');
    await payment.getByRole('button', { name: 'Confirm Payment' }).click();
    await create.getByTestId('purchase-result').waitFor();
    await create.getByRole('button', { name: 'View Subscription' }).click();

    // The dashboard opens the QR modal of the new subscription.
    await page.waitForURL(`${stack.baseUrl}/client-dashboard`);
    const qr = page.getByRole('dialog', { name: 'Subscription QR Code' });
    await qr.getByTestId('qr-ready').waitFor();
    expect(await qr.getByTestId('qr-group-note').innerText()).toBe(
      'Group Subscription (2 Servers)',
    );
    expect(await qr.getByTestId('qr-image').getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    const link = await qr.getByTestId('qr-connection').inputValue();
    const copy = qr.getByTestId('copy-connection');
    await copy.click();
    expect(await waitForText(copy, 'Copied!')).toBe('Copied!');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(link);
    expect(copied).toMatch(/^vless:\/\/[0-9a-f-]{36}@203\.0\.113\.21:3000[12]\?/);
    await qr.getByRole('button', { name: 'Close dialog' }).click();
    await qr.waitFor({ state: 'detached' });
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '10.00')).toBe('10.00');

    const [subscription] = (await subscriptionsOf(uuid, session.token)).subscriptions;
    expect(subscription?.serverCount).toBe(2);
    const card = page.locator(`[data-subscription-id="${subscription!.id}"]`);

    // Pause, then activate (resuming a pause is free).
    await page
      .getByTestId('active-subscriptions')
      .locator(card)
      .getByRole('button', { name: 'Pause' })
      .click();
    await waitForText(page.getByTestId('subscription-notice'), 'Subscription paused');
    await page.getByTestId('subscriptions-paused-only').waitFor();
    await page
      .getByTestId('paused-subscriptions')
      .locator(card)
      .getByRole('button', { name: 'Activate' })
      .click();
    await waitForText(page.getByTestId('subscription-notice'), 'Subscription activated');
    await page.getByTestId('active-subscriptions').locator(card).waitFor();
    expect(await page.getByTestId('paused-subscriptions').count()).toBe(0);
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '10.00')).toBe('10.00');

    // Delete through the confirmation.
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await confirm.getByRole('button', { name: 'Delete Subscription' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'No subscriptions yet' }).waitFor();
    expect((await subscriptionsOf(uuid, session.token)).subscriptions).toEqual([]);

    expect(await ledgerViolations(stack.db.url)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });
});
