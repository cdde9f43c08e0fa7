import { SUBSCRIPTION_ROUTES, type SubscriptionsResponse } from '@scn/proto';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { depositThroughChain } from './support/deposits';
import { buyFromMarket, insertListedServer, insertOperator } from './support/market';
import {
  type Account,
  collectProblems,
  signUpFromLanding,
  uniqueEmail,
  waitForText,
} from './support/portal';
import { browserSuite } from './support/suite';

/**
 * "Browser: a client signs up, is given SSL (a real deposit on the
 * local chain, paid by its demo wallet), selects two servers, pays, sees the QR modal, copies
 * the link, pauses and activates, deletes", against the real control plane, database and ledger.
 */

const suite = browserSuite({ solana: true });
const { openPage } = suite;

const SERVERS = ['Lisbon A', 'Lisbon B'] as const;

beforeAll(async () => {
  const ownerUuid = await insertOperator(suite.stack);
  for (const [index, name] of SERVERS.entries()) {
    const port = 30_001 + index;
    await insertListedServer(suite.stack, {
      ownerUuid,
      name,
      host: '203.0.113.21',
      port,
      location: 'Lisbon',
    });
  }
});

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
    const { price } = await buyFromMarket(page, stack.baseUrl, SERVERS);
    expect(price).toBe('20.00 SSL');

    // The dashboard opens the QR modal of the new subscription.
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
    // Monthly: the one pause of the next 6 months, 7 days at most, asked first.
    const pauseDialog = page.getByRole('dialog', { name: 'Pause this subscription?' });
    expect(await pauseDialog.getByTestId('pause-consequences').innerText()).toContain(
      'This uses your one pause for the next 6 months',
    );
    expect(await pauseDialog.getByTestId('pause-consequences').innerText()).toContain('7 days');
    await pauseDialog.getByRole('button', { name: 'Pause Subscription' }).click();
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
