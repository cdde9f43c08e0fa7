import type { Page } from 'playwright-core';
import { insertListedServer, insertOperator, marketCard } from './support/market';
import { registerAccount } from './support/portal';
import type { Stack } from './support/stack';
import { browserSuite } from './support/suite';

/**
 * Reachability in the browser (docs/reachability.md): the visitor is placed in Iran on Irancell
 * (AS44244) by GEOIP_TEST_OVERRIDES for a TEST-NET address that Chromium sends as
 * X-Forwarded-For (TRUST_PROXY=127.0.0.1). Needs the control plane's reachability endpoints.
 */
const VISITOR = '198.51.100.77';
const HEADERS = { 'X-Forwarded-For': VISITOR };

const suite = browserSuite({
  env: {
    TRUST_PROXY: '127.0.0.1',
    GEOIP_TEST_OVERRIDES: `${VISITOR}/32=IR:44244:Irancell`,
    // Free subscriptions: the purchase needs no deposit.
    LAUNCH_PERIOD_ENDS: '2999-12-31',
  },
});

async function serverId(stack: Stack, name: string): Promise<string> {
  const result = await stack.db.query<{ id: string }>('SELECT id FROM servers WHERE name = $1', [
    name,
  ]);
  return result[0]!.id;
}

/** One estimate row, as the control plane's estimator leaves it. */
async function seedReachability(
  stack: Stack,
  name: string,
  row: { country: string; asn: number; state: 'w' | 'b' | 'u'; score: number },
): Promise<void> {
  const id = await serverId(stack, name);
  const hasRevision = await stack.db.query(
    `SELECT 1 FROM information_schema.columns
      WHERE table_name = 'server_reachability' AND column_name = 'plan_revision'`,
  );
  const columns = ['server_id', 'country', 'asn', 'score', 'state', 'observers', 'probes'];
  const values: unknown[] = [id, row.country, row.asn, row.score, row.state, 3, 2];
  let extra = '';
  if (hasRevision.length > 0) {
    columns.push('plan_revision');
    extra = ', (SELECT plan_revision FROM servers WHERE id = $1)';
  }
  await stack.db.query(
    `INSERT INTO server_reachability (${columns.join(', ')}, measured_at, blocked_since)
     VALUES ($1, $2, $3, $4, $5, $6, $7${extra}, now() - interval '5 minutes',
       ${row.state === 'b' ? "now() - interval '2 hours'" : 'NULL'})`,
    values,
  );
}

async function openMarket(page: Page, query = ''): Promise<void> {
  await page.goto(`/servers${query}`);
  await page.getByTestId('market-grid').waitFor();
}

describe('reachability', () => {
  const WORKS = 'Reach Works';
  const BLOCKED = 'Reach Blocked';
  const UNMEASURED = 'Reach Unmeasured';

  beforeAll(async () => {
    const { stack } = suite;
    const operator = await insertOperator(stack);
    let port = 24000;
    for (const name of [WORKS, BLOCKED, UNMEASURED]) {
      port += 1;
      await insertListedServer(stack, {
        ownerUuid: operator,
        name,
        host: '203.0.113.40',
        port,
        location: 'Lisbon',
      });
    }
    await seedReachability(stack, WORKS, { country: 'IR', asn: 44244, state: 'w', score: 950 });
    await seedReachability(stack, BLOCKED, { country: 'IR', asn: 44244, state: 'b', score: 20 });
    await seedReachability(stack, BLOCKED, { country: 'RU', asn: 8359, state: 'w', score: 900 });
  });

  it('should badge each card from the visitor network and filter to the servers that work', async () => {
    const page = await suite.openPage({ headers: HEADERS });
    await openMarket(page);
    await page
      .getByTestId('market-network')
      .filter({ hasText: 'Your network: Iran · AS44244 Irancell' })
      .waitFor();
    const badge = (name: string) => marketCard(page, name).getByTestId('market-card-reachability');
    expect(await badge(WORKS).innerText()).toBe('Works from your network');
    expect(await badge(BLOCKED).innerText()).toBe('Blocked on your network');
    expect(await badge(UNMEASURED).innerText()).toBe('Not measured from your network');

    // The blocked server's table: Iran blocked first, then Russia working.
    await marketCard(page, BLOCKED).getByTestId('market-where-it-works').click();
    const dialog = page.getByRole('dialog', { name: `Where ${BLOCKED} works` });
    await dialog.getByTestId('reach-row').first().waitFor();
    const states = await dialog
      .getByTestId('reach-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state')));
    expect(states).toEqual(['blocked', 'works']);
    expect(await dialog.getByTestId('reach-row').first().innerText()).toContain('AS44244');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByTestId('market-filter-reachable').check();
    await page.waitForURL(/reachable=works/);
    await marketCard(page, BLOCKED).waitFor({ state: 'detached' });
    await marketCard(page, WORKS).waitFor();
    const names = await page.getByTestId('market-card-name').allInnerTexts();
    expect(names).toEqual([WORKS]);
  });

  it('should warn before buying a blocked server, then report it only after consent', async () => {
    const { stack } = suite;
    const client = await registerAccount(stack, 'client');
    const page = await suite.openPage({ account: client, headers: HEADERS });
    await openMarket(page);
    const card = marketCard(page, BLOCKED);
    expect(await card.getByTestId('market-blocked-warning').isVisible()).toBe(true);
    await card.getByTestId('market-connect').click();
    await page
      .getByRole('region', { name: 'Selected servers' })
      .getByRole('button', { name: 'Create Subscription' })
      .click();
    const create = page.getByRole('dialog', { name: 'Create Network Subscription' });
    await create.getByTestId('purchase-blocked-warning').waitFor();
    await create.getByRole('button', { name: 'Create Subscription' }).click();
    const payment = page.getByRole('dialog', { name: 'Payment Confirmation' });
    await payment.getByRole('button', { name: 'Confirm Payment' }).click();
    await create.getByRole('button', { name: 'View Subscription' }).click();
    await page.waitForURL(/\/client-dashboard/);
    // View Subscription opens the new subscription's QR dialog first.
    const qr = page.getByRole('dialog', { name: 'Subscription QR Code' });
    await qr.waitFor();
    await page.keyboard.press('Escape');
    await qr.waitFor({ state: 'detached' });

    const subscription = page.getByTestId('subscription-card').first();
    await subscription.getByTestId('reach-check-toggle').click();
    await subscription.getByTestId('reach-report-blocked').click();
    const consent = page.getByRole('dialog', { name: 'Send reachability reports?' });
    await consent.getByText('the country and network of your internet address').waitFor();
    // Nothing is sent before the client agrees.
    const before = await stack.db.query(
      "SELECT 1 FROM reachability_observations WHERE observer_kind = 'client'",
    );
    expect(before).toHaveLength(0);
    await consent.getByTestId('reach-consent-agree').click();

    const result = subscription.getByTestId('reach-report-result');
    await result.filter({ hasText: 'recorded as not working from here' }).waitFor();
    expect(await subscription.getByTestId('reach-report-network').innerText()).toBe(
      'Iran · AS44244 Irancell',
    );
    const after = await stack.db.query<{ works: boolean; country: string; asn: number }>(
      "SELECT works, country, asn FROM reachability_observations WHERE observer_kind = 'client'",
    );
    expect(after).toEqual([{ works: false, country: 'IR', asn: 44244 }]);
    expect(await page.evaluate(() => localStorage.getItem('reachabilityConsent'))).not.toBeNull();

    // Withdrawn: the next report asks again.
    await subscription.getByTestId('reach-consent-withdraw').click();
    expect(await page.evaluate(() => localStorage.getItem('reachabilityConsent'))).toBeNull();
    await subscription.getByTestId('reach-report-works').click();
    await page.getByRole('dialog', { name: 'Send reachability reports?' }).waitFor();
  });

  it('should show the operator where a server is blocked and save automatic regeneration', async () => {
    const { stack } = suite;
    const operator = await registerAccount(stack, 'node');
    await insertListedServer(stack, {
      ownerUuid: operator.uuid,
      name: 'Operator Blocked',
      host: '203.0.113.41',
      port: 24100,
      location: 'Lisbon',
    });
    await seedReachability(stack, 'Operator Blocked', {
      country: 'RU',
      asn: 8359,
      state: 'w',
      score: 900,
    });
    await seedReachability(stack, 'Operator Blocked', {
      country: 'IR',
      asn: 44244,
      state: 'b',
      score: 10,
    });
    const page = await suite.openPage({ account: operator, headers: HEADERS });
    await page.goto('/node-dashboard');
    const section = page.getByTestId('node-reachability');
    const server = section.getByTestId('node-reach-server');
    await server.first().waitFor();
    // (Shown in capitals by CSS: the text itself is the sentence.)
    expect(await server.getByTestId('node-reach-blocked-count').textContent()).toBe(
      'Blocked in 1 network',
    );
    const states = await server
      .getByTestId('reach-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state')));
    expect(states).toEqual(['blocked', 'works']);

    await server.getByTestId('node-reach-auto').selectOption('3600');
    await server
      .getByTestId('node-reach-auto-outcome')
      .filter({ hasText: 'Automatic port regeneration saved' })
      .waitFor();
    await page.reload();
    expect(await page.getByTestId('node-reach-auto').inputValue()).toBe('3600');

    // Vantage points: a token with its one-line command.
    const vantage = page.getByTestId('vantage-points');
    await vantage.getByTestId('vantage-add').click();
    await vantage.getByTestId('vantage-name').fill('Home, Tehran');
    await vantage.getByTestId('vantage-create').click();
    const command = await vantage.getByTestId('vantage-command').innerText();
    expect(command).toContain('probe');
    await vantage.getByTestId('vantage-empty').waitFor();
  });
});
