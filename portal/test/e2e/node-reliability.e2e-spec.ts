import { randomBytes, randomUUID } from 'node:crypto';
import { type Account, collectProblems, registerAccount } from './support/portal';
import { insertHistoryDays } from './support/reliability';
import { browserSuite } from './support/suite';

/**
 * The node dashboard's reliability chart: a server's last 30 days, with the reason
 * of each drop, drawn from the control plane's history API against a real database.
 */

const suite = browserSuite();

/**
 * A server as an enrolled agent leaves it after a fresh report (written straight to the DB). Its
 * row is dated ten minutes ahead: the stack's reliability sweep runs every minute on the real
 * clock and writes history from a server's creation, so it adds nothing to the fixture's days
 * while the test runs.
 */
async function insertServer(account: Account, name: string): Promise<string> {
  const id = randomUUID();
  await suite.stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       reliability_at_report, last_report_at, created_at)
     VALUES ($1, $2, $3, 'agent', 'tier2', $4, '203.0.113.8', 443, '{}'::jsonb, 100, now(),
             now() + interval '10 minutes')`,
    [id, account.uuid, name, randomBytes(32).toString('hex')],
  );
  return id;
}

const utcDate = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** A UTC day as the chart words it for an English reader ("Nov 26, 2026"). */
const dayText = (date: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

describe('node dashboard reliability chart', () => {
  it('draws 30 days of a server with a marker and a reason for each drop, and the same as a table', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const serverId = await insertServer(account, 'Chart node');
    // 40 days of history: 30 are drawn. Five days ago it went silent for three hours; two days
    // ago its client counts failed twice and one report was malformed.
    await insertHistoryDays(
      suite.stack,
      { id: serverId, ownerUuid: account.uuid, tier: 'tier2' },
      Array.from({ length: 40 }, (_, i) => {
        const daysAgo = 40 - i;
        if (daysAgo === 5) {
          return { daysAgo, average: 97.9, min: 85, belowSeconds: 7_200, staleSeconds: 10_800 };
        }
        if (daysAgo === 2) {
          return {
            daysAgo,
            average: 93.2,
            min: 80,
            belowSeconds: 14_400,
            failedReports: 2,
            malformedReports: 1,
          };
        }
        return { daysAgo, average: 100 };
      }),
    );

    const page = await suite.openPage({ account });
    const problems = collectProblems(page);
    await page.goto('/node-dashboard');
    const card = page.getByTestId('server-card');
    await card.waitFor();
    const chart = card.getByTestId('reliability-chart');
    const svg = chart.getByRole('img', { name: /Daily reliability, last 30 days/ });
    await svg.waitFor();

    // The days of the last 30 with data: 29 fixture days (40 ago to 1 ago, within 29 ago to today).
    expect(await chart.getByTestId('reliability-day').count()).toBe(29);
    const stale = chart.locator(`[data-testid="reliability-day"][data-date="${utcDate(5)}"]`);
    expect(
      await stale
        .getByTestId('reliability-drop')
        .evaluateAll((markers) => markers.map((m) => m.getAttribute('data-kind'))),
    ).toEqual(['stale']);
    const failed = chart.locator(`[data-testid="reliability-day"][data-date="${utcDate(2)}"]`);
    expect(
      await failed
        .getByTestId('reliability-drop')
        .evaluateAll((markers) => markers.map((m) => m.getAttribute('data-kind'))),
    ).toEqual(['failed', 'malformed']);
    // The tooltip (SVG title) names the drop and its reasons.
    expect(await failed.locator('title').textContent()).toBe(
      `${dayText(utcDate(2))}: average 93.2%, lowest 80%; 4 h below 95%; dropped by 2 failed client counts, 1 malformed report`,
    );
    // Days without a drop carry no marker.
    expect(await chart.getByTestId('reliability-drop').count()).toBe(3);
    // The description sums it up for assistive technology.
    expect(await svg.locator('desc').textContent()).toContain(
      `lowest 80% on ${dayText(utcDate(2))}, 2 days below the threshold, 2 days with drops`,
    );

    // The legend names each reason.
    const legend = chart.getByTestId('reliability-legend');
    expect(await legend.getByTestId('reliability-legend-stale').innerText()).toBe(
      'Stale reports (none for over an hour)',
    );
    expect(await legend.getByTestId('reliability-legend-failed').innerText()).toBe(
      'Failed client counts',
    );

    // The table alternative, opened from its summary.
    await chart.getByText('Reliability by day (table)').click();
    const row = chart.locator(`[data-testid="reliability-table-row"][data-date="${utcDate(5)}"]`);
    await row.waitFor();
    expect((await row.locator('td').allInnerTexts()).map((t) => t.trim())).toEqual([
      '97.9%',
      '85%',
      '2 h',
      'stale reports for 3 h',
    ]);
    expect(await chart.getByTestId('reliability-table-row').count()).toBe(29);
    expect(problems.pageErrors).toEqual([]);
  });

  it('says there is no history yet for a server without one', async () => {
    const account = await registerAccount(suite.stack, 'node');
    await insertServer(account, 'New node');
    const page = await suite.openPage({ account });
    await page.goto('/node-dashboard');
    await page.getByTestId('reliability-chart-empty').waitFor();
    expect(await page.getByTestId('reliability-chart-svg').count()).toBe(0);
  });
});
