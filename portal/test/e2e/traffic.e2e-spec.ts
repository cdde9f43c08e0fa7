import { randomBytes, randomUUID } from 'node:crypto';
import { type Account, collectProblems, registerAccount } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The traffic charts (a subscription's days per server on the client dashboard, a
 * server's days on the node dashboard), drawn from the control plane's traffic API against a
 * real database whose traffic rows the test writes (as the report writer does).
 */

const suite = browserSuite();

async function insertServer(ownerUuid: string, name: string): Promise<string> {
  const id = randomUUID();
  await suite.stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       reliability_at_report, last_report_at)
     VALUES ($1, $2, $3, 'agent', 'tier2', $4, '203.0.113.8', 443, '{}'::jsonb, 100, now())`,
    [id, ownerUuid, name, randomBytes(32).toString('hex')],
  );
  return id;
}

const utcDate = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** A traffic day of a subscription on a server, `daysAgo` UTC days ago. */
async function insertTraffic(
  subscriptionId: string,
  serverId: string,
  daysAgo: number,
  upload: number,
  download: number,
) {
  await suite.stack.db.query(
    `INSERT INTO subscription_traffic_days (subscription_id, server_id, day, upload_bytes, download_bytes)
     VALUES ($1, $2, $3::date, $4, $5)`,
    [subscriptionId, serverId, utcDate(daysAgo), upload, download],
  );
}

describe('traffic charts', () => {
  it('draws a server’s days on the node dashboard and a subscription’s days per server on the client dashboard', async () => {
    const operator = await registerAccount(suite.stack, 'node');
    const alpha = await insertServer(operator.uuid, 'Alpha node');
    const bravo = await insertServer(operator.uuid, 'Bravo node');
    const client: Account = await registerAccount(suite.stack, 'client');
    const subscriptionId = randomUUID();
    await suite.stack.db.query(
      `INSERT INTO subscriptions (id, owner_uuid, vless_uuid, status, billing_cycle, expires_at)
       VALUES ($1, $2, $3, 'active', 'monthly', now() + interval '20 days')`,
      [subscriptionId, client.uuid, randomUUID()],
    );
    await suite.stack.db.query(
      `INSERT INTO subscription_servers (subscription_id, server_id, position) VALUES ($1, $2, 0), ($1, $3, 1)`,
      [subscriptionId, alpha, bravo],
    );
    await insertTraffic(subscriptionId, alpha, 3, 1_000_000, 9_000_000);
    await insertTraffic(subscriptionId, bravo, 3, 500_000, 4_500_000);
    await insertTraffic(subscriptionId, alpha, 0, 200_000, 1_800_000);
    // 40 days ago: outside the 30 drawn.
    await insertTraffic(subscriptionId, alpha, 40, 7, 7);
    // Another subscription on Alpha: the node dashboard adds it up, the client never sees it.
    await insertTraffic(randomUUID(), alpha, 3, 3_000_000, 0);

    const node = await suite.openPage({ account: operator });
    const nodeProblems = collectProblems(node);
    await node.goto('/node-dashboard');
    const alphaCard = node.getByTestId('server-card').filter({ hasText: 'Alpha node' });
    const alphaChart = alphaCard.getByTestId('traffic-chart');
    await alphaChart.getByRole('img', { name: /Daily traffic, last 30 days/ }).waitFor();
    const nodeDays = alphaChart.getByTestId('traffic-day');
    expect(
      await nodeDays.evaluateAll((days) =>
        days.map((d) => [d.getAttribute('data-date'), d.getAttribute('data-bytes')]),
      ),
    ).toEqual([
      [utcDate(3), String(1_000_000 + 9_000_000 + 3_000_000)],
      [utcDate(0), String(2_000_000)],
    ]);
    expect(await alphaChart.getByTestId('traffic-chart-total').innerText()).toBe('Total: 15.0 MB');
    const bravoChart = node
      .getByTestId('server-card')
      .filter({ hasText: 'Bravo node' })
      .getByTestId('traffic-chart');
    await bravoChart.getByTestId('traffic-day').first().waitFor();
    expect(await bravoChart.getByTestId('traffic-day').count()).toBe(1);
    expect(nodeProblems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });

    const page = await suite.openPage({ account: client });
    const problems = collectProblems(page);
    await page.goto('/client-dashboard');
    const chart = page.getByTestId('subscription-card').getByTestId('traffic-chart');
    await chart.getByRole('img', { name: /Daily traffic, last 30 days/ }).waitFor();
    const day3 = chart.locator(`[data-testid="traffic-day"][data-date="${utcDate(3)}"]`);
    expect(await day3.getAttribute('data-bytes')).toBe(String(15_000_000));
    // Stacked by server, named in the tooltip and the legend.
    expect(await day3.locator('rect').count()).toBe(2);
    const day3Text = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${utcDate(3)}T00:00:00Z`),
    );
    expect(await day3.locator('title').textContent()).toBe(
      `${day3Text}: 15.0 MB (Alpha node 10.0 MB, Bravo node 5.0 MB)`,
    );
    expect(await chart.getByTestId('traffic-day').count()).toBe(2);
    expect(await chart.getByTestId('traffic-legend').innerText()).toContain('Bravo node');
    expect(await chart.getByTestId('traffic-chart-total').innerText()).toBe('Total: 17.0 MB');
    await chart.getByText('Traffic by day (table)').click();
    const row = chart.locator(`[data-testid="traffic-table-row"][data-date="${utcDate(0)}"]`);
    expect(await row.innerText()).toContain('2.0 MB');
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  });
});
