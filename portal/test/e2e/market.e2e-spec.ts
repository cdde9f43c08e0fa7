import { randomBytes, randomUUID } from 'node:crypto';
import {
  MARKET_ROUTES,
  NODES_ROUTES,
  SUBSCRIPTION_ROUTES,
  type MarketServersResponse,
} from '@scn/proto';
import type { Locator, Page, Request } from 'playwright-core';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { depositThroughChain } from './support/deposits';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The server market in the browser (docs/product/screens.md#the-shell-and-the-market-screens Server market, Server card, Purchase modals; docs/product/states.md#market-and-account-states
 * Connect cooldown, Purchase, Server list refresh; docs/product/input-rules.md#market-and-account-input purchasing rules; docs/product/constants.md#market-prices-and-limits page size and display)
 * against the real control plane, its database and ledger. Accounts get their SSL through real
 * deposits on the local chain.
 */

const suite = browserSuite({ solana: true });
const { openPage } = suite;

interface SeedServer {
  name: string;
  country: string;
  location: string;
  pingMs: number;
  uptimeHours: number;
}

/** 23 servers: 20 in Frankfurt, 2 in Helsinki, 1 in Tokyo: two pages of 20. */
const SEED: readonly SeedServer[] = [
  ...Array.from({ length: 20 }, (_, i) => ({
    name: `Frankfurt ${String(i + 1).padStart(2, '0')}`,
    country: 'DE',
    location: 'Frankfurt',
    pingMs: 20 + i,
    uptimeHours: 10 * (i + 1),
  })),
  { name: 'Helsinki Alpha', country: 'FI', location: 'Helsinki', pingMs: 35, uptimeHours: 0 },
  { name: 'Helsinki Beta', country: 'FI', location: 'Helsinki', pingMs: 120, uptimeHours: 50 },
  { name: 'Tokyo Edge', country: 'JP', location: 'Tokyo', pingMs: 180, uptimeHours: 26 },
];

let operator: Account;
const serverIds = new Map<string, string>();

/** A server as an enrolled agent leaves it after a fresh report (as the node-dashboard spec). */
async function insertServer(ownerUuid: string, seed: SeedServer): Promise<string> {
  const id = randomUUID();
  await suite.stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       country, location, active_clients, ping_ms, uptime_seconds, reliability_at_report,
       last_report_at)
     VALUES ($1, $2, $3, 'agent', 'tier2', $4, '203.0.113.7', $5, $6::jsonb, $7, $8, 2, $9, $10,
       96, now())`,
    [
      id,
      ownerUuid,
      seed.name,
      randomBytes(32).toString('hex'),
      10_000 + serverIds.size,
      JSON.stringify({ security: 'none', network: 'tcp' }),
      seed.country,
      seed.location,
      seed.pingMs,
      seed.uptimeHours * 3600,
    ],
  );
  return id;
}

beforeAll(async () => {
  operator = await registerAccount(suite.stack, 'node');
  for (const seed of SEED) serverIds.set(seed.name, await insertServer(operator.uuid, seed));
});

function cards(page: Page): Locator {
  return page.getByTestId('market-server-card');
}

function card(page: Page, name: string): Locator {
  // By text, not role: behind an open dialog the page is aria-hidden.
  return cards(page).filter({
    has: page.getByTestId('market-card-name').getByText(name, { exact: true }),
  });
}

async function cardNames(page: Page): Promise<string[]> {
  return cards(page).getByTestId('market-card-name').allInnerTexts();
}

async function openMarket(account?: Account, query = ''): Promise<Page> {
  const page = await openPage({ account });
  await page.goto(`/servers${query}`);
  await page.getByRole('heading', { level: 1, name: 'Network Servers' }).waitFor();
  return page;
}

/** Waits until the grid shows exactly `count` cards (after a search, filter or page change). */
async function waitForCount(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (expected: number) =>
      document.querySelectorAll('[data-testid="market-server-card"]').length === expected &&
      !document.querySelector('.market-loading'),
    count,
  );
}

function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

describe('server market', () => {
  it('lists the servers with stats, 20 to a page, and keeps the page in the URL', async () => {
    const page = await openMarket();
    const problems = collectProblems(page);

    await waitForCount(page, 20);
    // The tiles load on their own (/data/stats), independently of the cards.
    expect(await waitForText(page.getByTestId('market-stat-total'), '23')).toBe('23');
    expect(await page.getByTestId('market-stat-countries').innerText()).toBe('3');
    // Every seed reports 96; pings average 925 / 23 = 40.2 ms.
    expect(await page.getByTestId('market-stat-reliability').innerText()).toBe('96');
    expect(await page.getByTestId('market-stat-ping').innerText()).toBe('40');
    const tiles = await page.getByTestId('market-stats').innerText();
    for (const label of ['Total Servers', 'Countries', 'Avg. Reliability (%)', 'Avg. Ping (ms)']) {
      expect(tiles).toContain(label);
    }

    // docs/product/constants.md#market-prices-and-limits default order: reliability (all equal) then ping ascending.
    const first = await cardNames(page);
    expect(first[0]).toBe('Frankfurt 01');
    expect(first).not.toContain('Tokyo Edge');

    const frankfurtText = await card(page, 'Frankfurt 02').innerText();
    expect(frankfurtText).toContain('DE');
    expect(frankfurtText).toContain('Frankfurt');
    expect(await card(page, 'Frankfurt 02').getByTestId('market-card-uptime').innerText()).toBe(
      '0d 20h',
    );
    expect(await card(page, 'Frankfurt 02').getByTestId('market-card-ping').innerText()).toBe(
      '21 ms',
    );
    expect(
      await card(page, 'Frankfurt 02').getByTestId('market-card-ping').getAttribute('class'),
    ).toContain('market-tone--success');
    expect(await card(page, 'Frankfurt 02').getByTestId('market-card-price').innerText()).toBe(
      '10 SSL',
    );

    const pagination = page.getByTestId('market-pagination');
    await pagination.getByRole('button', { name: 'Next' }).click();
    await waitForCount(page, 3);
    expect(query(page).get('page')).toBe('2');
    expect(
      await pagination.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await cardNames(page)).toContain('Tokyo Edge');
    const tokyo = card(page, 'Tokyo Edge');
    expect(await tokyo.getByTestId('market-card-ping').getAttribute('class')).toContain(
      'market-tone--danger',
    );
    expect(await tokyo.getByTestId('market-card-uptime').innerText()).toBe('1d 2h');

    // A reload (or a shared link) keeps the page.
    await page.reload();
    await waitForCount(page, 3);
    expect(await cardNames(page)).toContain('Tokyo Edge');

    await pagination.getByRole('button', { name: 'Previous' }).click();
    await waitForCount(page, 20);
    expect(query(page).get('page')).toBeNull();
    expect(problems.pageErrors).toEqual([]);
  });

  it('asks a visitor to sign in as client and shows back-to-top after 300 px', async () => {
    const page = await openMarket();
    await waitForCount(page, 20);
    const action = card(page, 'Frankfurt 01').getByRole('button', {
      name: 'Sign in as client to connect',
    });
    // A visitor cannot select: a click on the card changes nothing.
    await card(page, 'Frankfurt 01').click({ position: { x: 10, y: 10 } });
    expect(await card(page, 'Frankfurt 01').getAttribute('data-selected')).toBe('false');
    expect(await page.getByTestId('selection-count').count()).toBe(0);

    expect(await page.getByTestId('back-to-top').count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.getByTestId('back-to-top').waitFor();
    await page.getByTestId('back-to-top').click();
    await page.waitForFunction(() => window.scrollY === 0);
    await page.getByTestId('back-to-top').waitFor({ state: 'detached' });

    await action.click();
    await page.getByRole('dialog', { name: /^Sign (In|Up) as Client$/ }).waitFor();
  });

  it('searches (debounced) and filters by country, sort and order, all kept in the URL', async () => {
    const page = await openMarket();
    await waitForCount(page, 20);

    await page.getByTestId('market-search').fill('helsinki');
    await waitForCount(page, 2);
    expect(query(page).get('search')).toBe('helsinki');
    expect(await cardNames(page)).toEqual(['Helsinki Alpha', 'Helsinki Beta']);
    expect(await page.getByTestId('market-pagination').count()).toBe(0);

    await page.getByTestId('market-search').fill('Tokyo');
    await waitForCount(page, 1);

    const toggle = page.getByTestId('market-filters-toggle');
    expect(await toggle.innerText()).toBe('Filters');
    await toggle.click();
    expect(await toggle.innerText()).toBe('Hide Filters');
    const filters = page.getByTestId('market-filters');
    const country = filters.getByLabel('Country');
    expect(await country.locator('option').first().innerText()).toBe('All Countries');
    expect(
      await country
        .locator('option')
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
    ).toEqual(['', 'DE', 'FI', 'JP']);

    // Tokyo in Finland: nothing.
    await country.selectOption('FI');
    await page.getByTestId('servers-empty').waitFor();
    expect(await page.getByTestId('servers-empty').innerText()).toContain('No servers found');
    expect(await page.getByTestId('servers-empty').innerText()).toContain(
      'Try adjusting your search filters to find more servers.',
    );

    await page.getByTestId('market-search').fill('');
    await waitForCount(page, 2);
    expect(query(page).get('country')).toBe('FI');
    expect(query(page).get('search')).toBeNull();

    // Ping, Worst First: the highest ping leads.
    await filters.getByLabel('Sort By').selectOption('ping');
    await filters.getByLabel('Order').selectOption('asc');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('order') === 'asc');
    await waitForCount(page, 2);
    expect(await cardNames(page)).toEqual(['Helsinki Beta', 'Helsinki Alpha']);
    await filters.getByLabel('Order').selectOption('desc');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('order') === 'desc');
    await waitForCount(page, 2);
    expect(await cardNames(page)).toEqual(['Helsinki Alpha', 'Helsinki Beta']);
    expect(Object.fromEntries(query(page))).toEqual({ country: 'FI', sort: 'ping', order: 'desc' });

    // The link restores filters and results: the panel opens with the same choices.
    const shared = page.url();
    const other = await openPage();
    await other.goto(shared);
    await waitForCount(other, 2);
    expect(await other.getByTestId('market-filters-toggle').innerText()).toBe('Hide Filters');
    expect(await other.getByTestId('market-filters').getByLabel('Country').inputValue()).toBe('FI');
    expect(await other.getByTestId('market-filters').getByLabel('Sort By').inputValue()).toBe(
      'ping',
    );
    expect(await cardNames(other)).toEqual(['Helsinki Alpha', 'Helsinki Beta']);

    // Back undoes a filter step.
    await page.goBack();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('order') === 'asc');
    await waitForCount(page, 2);
    expect(await cardNames(page)).toEqual(['Helsinki Beta', 'Helsinki Alpha']);
  });

  it('shows a node operator the active connections and tags their own servers', async () => {
    const page = await openMarket(operator);
    await waitForCount(page, 20);
    const first = card(page, 'Frankfurt 01');
    expect(await first.getByTestId('market-card-badges').textContent()).toContain('Your Server');
    expect(await first.getByTestId('market-card-connections').innerText()).toBe(
      '2 active connections',
    );
    expect(await first.getByRole('button', { name: 'Connect' }).count()).toBe(0);
    await first.click({ position: { x: 10, y: 10 } });
    expect(await first.getAttribute('data-selected')).toBe('false');
    expect(await page.getByTestId('selection-count').count()).toBe(0);
  });

  it('refetches the servers when the list changes (realtime server-list-updated)', async () => {
    const page = await openMarket(undefined, '?search=Tokyo');
    await waitForCount(page, 1);
    const renamed = 'Tokyo Edge 2';
    const response = await fetch(
      `${suite.stack.baseUrl}${NODES_ROUTES.server(operator.uuid, serverIds.get('Tokyo Edge')!)}`,
      {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${operator.token}`,
        },
        body: JSON.stringify({ name: renamed }),
      },
    );
    expect(response.status).toBe(200);
    await card(page, renamed).waitFor();
    // Put the name back for the other tests.
    await suite.stack.db.query('UPDATE servers SET name = $1 WHERE id = $2', [
      'Tokyo Edge',
      serverIds.get('Tokyo Edge'),
    ]);
  });

  it('lets a client select servers: cooldown, selection bar and Clear', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openMarket(client);
    await waitForCount(page, 20);

    const first = card(page, 'Frankfurt 03');
    await first.click({ position: { x: 10, y: 10 } });
    expect(await waitForText(page.getByTestId('selection-count'), '1 server selected')).toBe(
      '1 server selected',
    );
    expect(await first.getAttribute('data-selected')).toBe('true');
    expect(await first.getByTestId('market-card-badges').textContent()).toContain('Selected');
    // docs/product/states.md#market-and-account-states: a non-premium server is marked processing for 60 s and cannot be toggled.
    const connect = first.getByTestId('market-connect');
    await connect.filter({ hasText: /^Available for subscription in \d+s$/ }).waitFor();
    const seconds = Number(/(\d+)s$/.exec(await connect.innerText())![1]);
    expect(seconds).toBeGreaterThan(50);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await connect.isDisabled()).toBe(true);
    await first.click({ position: { x: 10, y: 10 } });
    expect(await first.getAttribute('data-selected')).toBe('true');
    // Polled every second: the count goes down.
    await page.waitForFunction(
      (start: number) => {
        const button = document.querySelector(
          '[data-selected="true"] [data-testid="market-connect"]',
        );
        const match = /(\d+)s$/.exec(button?.textContent ?? '');
        return match !== null && Number(match[1]) < start;
      },
      seconds,
      { timeout: 5_000 },
    );

    await card(page, 'Frankfurt 04').getByTestId('market-connect').click();
    await waitForText(page.getByTestId('selection-count'), '2 servers selected');

    // The selection survives a page change.
    await page.getByTestId('market-pagination').getByRole('button', { name: 'Next' }).click();
    await waitForCount(page, 3);
    expect(await page.getByTestId('selection-count').innerText()).toBe('2 servers selected');

    await page
      .getByRole('region', { name: 'Selected servers' })
      .getByRole('button', { name: 'Clear' })
      .click();
    await page.getByTestId('selection-count').waitFor({ state: 'detached' });
  });

  it('buys two servers: refused without funds, then paid once after a real deposit', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openMarket(client, '?search=Helsinki');
    const problems = collectProblems(page);
    await waitForCount(page, 2);

    const purchases: Request[] = [];
    page.on('request', (request) => {
      if (
        request.method() === 'POST' &&
        new URL(request.url()).pathname === SUBSCRIPTION_ROUTES.create
      ) {
        purchases.push(request);
      }
    });

    await card(page, 'Helsinki Alpha').getByTestId('market-connect').click();
    await card(page, 'Helsinki Beta').getByTestId('market-connect').click();
    await waitForText(page.getByTestId('selection-count'), '2 servers selected');

    const bar = page.getByRole('region', { name: 'Selected servers' });
    const create = page.getByRole('dialog', { name: 'Create Network Subscription' });
    const payment = page.getByRole('dialog', { name: 'Payment Confirmation' });

    // No funds: the price, a red balance, the spec's message and no way to confirm.
    await bar.getByRole('button', { name: 'Create Subscription' }).click();
    await create.waitFor();
    expect(await create.getByTestId('purchase-servers').innerText()).toContain('Helsinki Alpha');
    expect(await create.getByTestId('purchase-total').innerText()).toBe('20.00 SSL / month');
    await create.getByRole('button', { name: 'Create Subscription' }).click();
    await payment.waitFor();
    expect(await payment.getByTestId('payment-server-count').innerText()).toBe('2');
    expect(await payment.getByTestId('payment-price').innerText()).toBe('20.00 SSL');
    expect(await payment.getByTestId('payment-balance').innerText()).toBe('0.00 SSL');
    expect(await payment.getByTestId('payment-balance').getAttribute('class')).toContain(
      'market-tone--danger',
    );
    expect(await payment.getByTestId('payment-error').innerText()).toBe(
      'Insufficient balance. You need 20.00 SSL but have 0.00 SSL.',
    );
    expect(await payment.getByRole('button', { name: 'Confirm Payment' }).isDisabled()).toBe(true);
    // The first modal waits underneath (inert, so found by test id, not by role).
    expect(
      await page
        .getByTestId('create-subscription-dialog')
        .locator('button.btn--primary')
        .innerText(),
    ).toBe('Creating...');
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await payment.waitFor({ state: 'detached' });
    await create.getByRole('button', { name: 'Create Subscription' }).waitFor();
    expect(purchases).toHaveLength(0);

    // A real deposit of 25 SSL on the local chain, then the purchase goes through exactly once.
    await depositThroughChain(suite.stack, client, 25);
    await create.getByRole('button', { name: 'Create Subscription' }).click();
    await payment.waitFor();
    expect(await payment.getByTestId('payment-balance').innerText()).toBe('25.00 SSL');
    expect(await payment.getByTestId('payment-balance').getAttribute('class')).toContain(
      'market-tone--success',
    );
    expect(await payment.getByTestId('payment-error').count()).toBe(0);
    const confirm = payment.getByRole('button', { name: 'Confirm Payment' });
    // The list is fetched again once the purchase is through.
    const refetched = page.waitForResponse(
      (response) =>
        purchases.length === 1 &&
        response.request().method() === 'GET' &&
        new URL(response.url()).pathname === MARKET_ROUTES.servers,
    );
    await confirm.dblclick();
    await payment.waitFor({ state: 'detached' });

    const result = create.getByTestId('purchase-result');
    await result.waitFor();
    expect((await create.getByTestId('purchase-message').innerText()).length).toBeGreaterThan(0);
    expect(await create.getByTestId('purchase-charged').innerText()).toBe(
      'Charged 20.00 SSL · Balance 5.00 SSL',
    );
    expect(await create.getByTestId('group-qr').getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    const serverQrs = create.getByTestId('server-qr');
    expect(await serverQrs.count()).toBe(2);
    const qrText = await create.getByTestId('server-qr-codes').innerText();
    expect(qrText).toContain('Helsinki Alpha');
    expect(qrText).toContain(serverIds.get('Helsinki Beta')!);
    expect(qrText).toMatch(/UUID: [0-9a-f-]{36}/);

    // One request, with an Idempotency-Key, naming servers and never an amount.
    expect(purchases).toHaveLength(1);
    const purchase = purchases[0]!;
    expect(purchase.headers()['idempotency-key']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const body = purchase.postDataJSON() as Record<string, unknown>;
    expect(body).toEqual({
      uuid: client.uuid,
      serverIds: [serverIds.get('Helsinki Alpha'), serverIds.get('Helsinki Beta')],
    });

    // The selection is cleared and the list refreshed: both servers are now the client's
    // (Subscribed badge, Already Subscribed).
    await page.getByTestId('selection-count').waitFor({ state: 'detached' });
    const listing = (await (await refetched).json()) as MarketServersResponse;
    for (const name of ['Helsinki Alpha', 'Helsinki Beta']) {
      const listed = listing.servers.find((server) => server.name === name)!;
      expect(listed.isSubscribed).toBe(true);
      await card(page, name)
        .getByTestId('market-connect')
        .filter({ hasText: 'Already Subscribed' })
        .waitFor();
      expect(await card(page, name).getByTestId('market-card-badges').textContent()).toContain(
        'Subscribed',
      );
    }

    const balances = await suite.stack.db.query<{ balance_micro: string }>(
      `SELECT balance_micro::text FROM ledger_accounts WHERE kind = 'client_wallet' AND owner_uuid = $1`,
      [client.uuid],
    );
    expect(balances).toEqual([{ balance_micro: '5000000' }]);
    expect(await ledgerViolations(suite.stack.db.url)).toEqual([]);

    // The double click paid once: one subscription.
    const subscriptions = await suite.stack.db.query<{ id: string }>(
      'SELECT id FROM subscriptions WHERE owner_uuid = $1',
      [client.uuid],
    );
    expect(subscriptions).toHaveLength(1);

    // View Subscription: the client dashboard with the new subscription in navigation state
    // (docs/product/screens.md#dashboards-and-information-pages). The dashboard consumes that state at once, so the push itself is recorded.
    await page.evaluate(() => {
      const recorded: unknown[] = [];
      (window as unknown as { pushedStates: unknown[] }).pushedStates = recorded;
      const push = window.history.pushState.bind(window.history);
      window.history.pushState = (state: unknown, unused: string, url?: string | URL | null) => {
        recorded.push(state);
        push(state, unused, url);
      };
    });
    await create.getByRole('button', { name: 'View Subscription' }).click();
    await page.waitForURL(`${suite.stack.baseUrl}/client-dashboard`);
    const pushed = (await page.evaluate(
      () => (window as unknown as { pushedStates: unknown[] }).pushedStates,
    )) as {
      newSubscriptionId?: string;
      showSubscription?: { subscriptionId: string; timestamp: number };
    }[];
    expect(pushed).toEqual([
      {
        newSubscriptionId: subscriptions[0]!.id,
        showSubscription: { subscriptionId: subscriptions[0]!.id, timestamp: expect.any(Number) },
      },
    ]);
    expect(problems.pageErrors).toEqual([]);
  });

  it('retries a purchase whose answer was lost with the same Idempotency-Key and pays once', async () => {
    const client = await registerAccount(suite.stack, 'client');
    await depositThroughChain(suite.stack, client, 10);
    const page = await openMarket(client, '?search=Tokyo');
    await waitForCount(page, 1);

    // The control plane gets (and pays) the first request; its answer never reaches the page.
    const keys: string[] = [];
    await page.route(`**${SUBSCRIPTION_ROUTES.create}`, async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (keys.length === 1) {
        await route.fetch();
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });

    await card(page, 'Tokyo Edge').getByTestId('market-connect').click();
    await page.getByRole('button', { name: 'Create Subscription' }).click();
    const create = page.getByTestId('create-subscription-dialog');
    await create.getByRole('button', { name: 'Create Subscription' }).click();
    const payment = page.getByRole('dialog', { name: 'Payment Confirmation' });
    const confirm = payment.getByRole('button', { name: 'Confirm Payment' });
    await confirm.click();
    expect(
      await waitForText(payment.getByTestId('payment-error'), 'Failed to create subscription'),
    ).toBe('Failed to create subscription');
    // Paid already, but the page cannot know: the retry stays possible.
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await payment.waitFor({ state: 'detached' });
    await create.getByTestId('purchase-result').waitFor();

    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const balances = await suite.stack.db.query<{ balance_micro: string }>(
      `SELECT balance_micro::text FROM ledger_accounts WHERE kind = 'client_wallet' AND owner_uuid = $1`,
      [client.uuid],
    );
    expect(balances).toEqual([{ balance_micro: '0' }]);
    expect(
      await suite.stack.db.query('SELECT id FROM subscriptions WHERE owner_uuid = $1', [
        client.uuid,
      ]),
    ).toHaveLength(1);
    expect(await ledgerViolations(suite.stack.db.url)).toEqual([]);
  });
});
