import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import {
  DEPOSIT_ROUTES,
  type Earnings,
  formatSsl,
  REWARDS_MESSAGES,
  type SolanaConfig,
  tierMonthlyIncome,
  VPS_TIERS,
  withdrawalQuote,
  withdrawalSuccessMessage,
} from '@scn/proto';
import type { Locator, Page } from 'playwright-core';
import {
  addPeriods,
  periodBounds,
  periodOf,
} from '../../../control-plane/src/rewards/reward-period';
import { RUN_DELAY_MS } from '../../../control-plane/src/rewards/rewards-tick.service';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { insertHistory } from '../../../control-plane/test/support/reward-fixtures';
import { depositThroughChain } from './support/deposits';
import {
  type ExpectedMonth,
  expectedMonth,
  fetchEarnings,
  insertReportingServer,
  poolFacts,
  reportAt,
  storedFacts,
  waitForPaidMonth,
} from './support/earnings';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * "Browser: an operator's node earns across a simulated month (an injectable clock),
 * the statement matches the formula, staking changes the next statement, a withdrawal (setting
 * on) reaches the local chain", on the built control plane with its test clock.
 *
 * The reliability history is written as stored facts (server_reliability_days, the table the
 * rewards read) with control-plane/test/support/reward-fixtures.ts: the history writer of issue
 * 18 §1 is another part's, and the sweep would have to run for every minute of a simulated
 * month. The clock moves in two jumps, to an hour and a minute after each month's end: the
 * control plane then runs every periodic job at once, so the monthly job pays the month that
 * ended (it would wait up to 5 minutes for its next tick otherwise). Before each jump the node's
 * last report is written at the new time, as its agent reporting every minute would have left it.
 *
 * The ledger stamps its rows with the database's clock, which the test clock does not move: the
 * operator therefore stakes while the simulated time is still the real one (in the first month),
 * so that the stake the engine finds at each month's start and end is the one the simulation had.
 */

const suite = browserSuite({ solana: true, withdrawals: true, testClock: true });
const { openPage } = suite;

const TIER = 'tier2' as const;
const DAY = 86_400;
const MINUTE_MS = 60_000;

interface ShownLine {
  micro: string | null;
  explanation: string;
}
interface ShownMonth {
  kind: string | null;
  servers: Array<{ id: string | null; status: string | null; lines: Record<string, ShownLine> }>;
  totals: Record<string, string | null>;
  staking: Record<string, string | null> | null;
}

/** What the Earnings section shows, read from the page (amounts: their exact micro-SSL). */
function readShown(panel: Locator): Promise<ShownMonth> {
  return panel.evaluate((root): ShownMonth => {
    const value = (scope: Element, testId: string) =>
      scope.querySelector(`[data-testid="${testId}"]`)?.getAttribute('value') ?? null;
    const staking = root.querySelector('[data-testid="staking-statement"]');
    const totals = root.querySelector('[data-testid="earnings-totals"]');
    return {
      kind:
        root.querySelector('[data-testid="earnings-statement"]')?.getAttribute('data-kind') ?? null,
      servers: [...root.querySelectorAll('[data-testid="server-statement"]')].map((server) => ({
        id: server.getAttribute('data-server-id'),
        status: server.getAttribute('data-status'),
        lines: Object.fromEntries(
          [...server.querySelectorAll('[data-testid="statement-line"]')].map((line) => [
            line.getAttribute('data-line') ?? '',
            {
              micro: value(line, 'line-amount'),
              explanation:
                line.querySelector('[data-testid="line-explanation"]')?.textContent ?? '',
            },
          ]),
        ),
      })),
      totals: Object.fromEntries(
        ['incomeMicro', 'walletMicro', 'autoStakedMicro', 'escrowedMicro', 'stakingMicro'].map(
          (key) => [key, totals ? value(totals, `total-${key}`) : null],
        ),
      ),
      staking: staking
        ? {
            start: value(staking, 'staking-start'),
            end: value(staking, 'staking-end'),
            income: value(staking, 'staking-income'),
            paid: value(staking, 'staking-paid'),
          }
        : null,
    };
  });
}

/** The page shows `expected` for the server, and exactly the API's explanation of each line. */
function expectShown(shown: ShownMonth, api: Earnings, serverId: string, expected: ExpectedMonth) {
  expect(shown.servers.map((server) => server.id)).toEqual([serverId]);
  const lines = shown.servers[0]!.lines;
  expect(Object.keys(lines)).toEqual(Object.keys(expected.lines));
  for (const [key, micro] of Object.entries(expected.lines)) {
    expect({ key, micro: lines[key]!.micro }).toEqual({ key, micro: micro.toString() });
  }
  expect(shown.servers[0]!.lines).toEqual(
    Object.fromEntries(
      api.servers[0]!.lines.map((line) => [
        line.key,
        { micro: line.resultMicro, explanation: line.explanation },
      ]),
    ),
  );
  expect(shown.totals).toEqual(
    Object.fromEntries(Object.entries(expected.totals).map(([k, v]) => [k, v.toString()])),
  );
  expect(shown.staking).toEqual({
    start: expected.staking.startMicro.toString(),
    end: expected.staking.endMicro.toString(),
    income: expected.staking.incomeMicro.toString(),
    paid: expected.staking.paidMicro.toString(),
  });
}

async function openDashboard(account: Account): Promise<{ page: Page; panel: Locator }> {
  const page = await openPage({ account });
  await page.goto('/node-dashboard');
  const panel = page.getByTestId('earnings-panel');
  await panel.getByTestId('earnings-period').waitFor();
  return { page, panel };
}

/** "November 2026", as the section names a month. */
function periodLabelOf(period: string): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(periodBounds(period).start);
}

/** Picks a month in the Earnings section and waits for its statement. */
async function showMonth(panel: Locator, period: string, kind: Earnings['kind']): Promise<void> {
  await panel.getByTestId('earnings-period').selectOption(period);
  await panel.locator(`[data-testid="earnings-statement"][data-kind="${kind}"]`).waitFor();
}

/** A month of history: every day at `reliability`, one day (the 10th) at 90% all day if asked. */
async function writeMonth(
  account: Account,
  serverId: string,
  period: string,
  reliability: number,
  withBadDay: boolean,
): Promise<void> {
  const { start, end } = periodBounds(period);
  const day = (at: Date) => at.toISOString().slice(0, 10);
  const row = { serverId, ownerUuid: account.uuid, tier: TIER };
  await insertHistory(suite.stack.db, {
    ...row,
    from: day(start),
    to: day(new Date(end.getTime() - DAY * 1000)),
    reliability,
  });
  if (withBadDay) {
    const tenth = `${period}-10`;
    await insertHistory(suite.stack.db, {
      ...row,
      from: tenth,
      to: tenth,
      reliability: 90,
      belowSeconds: DAY,
    });
  }
}

/** Moves the control plane an hour and a minute past `period`'s end, the node still reporting. */
async function passMonthEnd(serverId: string, period: string): Promise<void> {
  const at = new Date(periodBounds(period).end.getTime() + RUN_DELAY_MS + MINUTE_MS);
  await reportAt(suite.stack.db, serverId, at);
  suite.stack.clock!.set(at);
}

describe('earnings', () => {
  it('says No earnings yet, shows a failed load with Try Again, and offers the months since the first server', async () => {
    const { stack } = suite;
    const operator = await registerAccount(stack, 'node');
    const page = await openPage({ account: operator });
    const problems = collectProblems(page);
    let offline = true;
    await page.route('**/api/nodes/*/earnings**', (route) =>
      offline ? route.abort('failed') : route.continue(),
    );
    await page.goto('/node-dashboard');
    const panel = page.getByTestId('earnings-panel');
    expect(
      await waitForText(panel.getByTestId('earnings-error'), REWARDS_MESSAGES.fetchFailed),
    ).toBe(REWARDS_MESSAGES.fetchFailed);
    offline = false;
    await panel.getByRole('button', { name: 'Try Again' }).click();
    await panel.getByRole('heading', { name: 'No earnings yet' }).waitFor();
    const now = periodOf(stack.clock!.now());
    // Without a server: only the current month, the server's.
    expect(await panel.getByTestId('earnings-period').inputValue()).toBe(now);
    expect(await panel.getByTestId('earnings-period').locator('option').count()).toBe(1);
    expect(await panel.getByTestId('earnings-previous').isDisabled()).toBe(true);
    expect(await panel.getByTestId('earnings-next').isDisabled()).toBe(true);

    // A server enrolled two months ago: three months to choose, newest first.
    const enrolled = periodBounds(addPeriods(now, -2)).start;
    const serverId = await insertReportingServer(stack.db, {
      ownerUuid: operator.uuid,
      name: 'Lisbon 1',
      tier: TIER,
      createdAt: enrolled,
      reportedAt: stack.clock!.now(),
    });
    await page.reload();
    const months = panel.getByTestId('earnings-period').locator('option');
    // The months follow the server list once it has loaded.
    await months
      .filter({ hasText: periodLabelOf(addPeriods(now, -2)) })
      .waitFor({ state: 'attached' });
    expect(
      await months.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual([now, addPeriods(now, -1), addPeriods(now, -2)]);
    await panel.getByRole('button', { name: 'Previous month' }).click();
    await panel.getByRole('heading', { name: 'No earnings yet' }).waitFor();
    expect(await panel.getByTestId('earnings-period').inputValue()).toBe(addPeriods(now, -1));
    expect(await panel.getByTestId('earnings-empty').innerText()).toContain(
      periodLabelOf(addPeriods(now, -1)),
    );
    // This month the server is listed although the history sweep has written none of its facts
    // yet (it would within a minute): no lines, zero figures, and a note that they are coming.
    await panel.getByRole('button', { name: 'Next month' }).click();
    const pending = panel.locator(
      `[data-testid="server-statement"][data-server-id="${serverId}"][data-first-facts-pending="true"]`,
    );
    await pending.waitFor();
    expect(await panel.getByTestId('earnings-period').inputValue()).toBe(now);
    expect(await pending.getByRole('heading', { level: 3 }).innerText()).toBe('Lisbon 1');
    expect(await pending.getByTestId('first-facts-pending').innerText()).toBe(
      REWARDS_MESSAGES.firstFactsPending,
    );
    expect(await pending.getByTestId('statement-line').count()).toBe(0);
    expect(
      await panel.getByTestId('earnings-totals').locator('[value]').first().getAttribute('value'),
    ).toBe('0');
    expect(problems.pageErrors).toEqual([]);
  });

  it('a node earns across simulated months, the statements match the rules, staking changes the next one, and a withdrawal reaches the chain', async () => {
    const { stack } = suite;
    const operator = await registerAccount(stack, 'node');
    await depositThroughChain(stack, operator, 200);
    const first = periodOf(stack.clock!.now());
    const second = addPeriods(first, 1);
    const enrolledAt = periodBounds(first).start;
    const serverId = await insertReportingServer(stack.db, {
      ownerUuid: operator.uuid,
      name: 'Frankfurt 1',
      tier: TIER,
      createdAt: enrolledAt,
      reportedAt: stack.clock!.now(),
    });
    await writeMonth(operator, serverId, first, 98, true);

    // This month so far: the dry run, clearly marked, with the server's statement.
    const { page, panel } = await openDashboard(operator);
    const problems = collectProblems(page);
    await panel.locator('[data-testid="earnings-statement"][data-kind="dry_run"]').waitFor();
    expect(await panel.getByTestId('earnings-dry-run').innerText()).toBe(
      `So far, not final. ${REWARDS_MESSAGES.dryRun}`,
    );
    expect(await panel.getByTestId('earnings-period').inputValue()).toBe(first);
    expect(await panel.getByTestId('statement-status').innerText()).toBe('So far, not final');
    const table = panel.getByRole('table', { name: 'Frankfurt 1' });
    await table.getByRole('rowheader', { name: /Reliability and slashing/ }).waitFor();
    // The month's facts are all written: so far, its lines before the pool are the final ones.
    const firstFacts = await storedFacts(stack.db, serverId, first);
    const soFar = expectedMonth({
      tier: TIER,
      period: first,
      facts: firstFacts,
      enrolledAt,
      stakeAtStartMicro: 0n,
      stakeAtEndMicro: 0n,
      requiredBeforeMicro: 0n,
      autoStakePercent: 0,
      ...(await poolFacts(stack.db, first)),
    });
    const dryLines = (await readShown(panel)).servers[0]!.lines;
    for (const key of ['base', 'reliability', 'frozen', 'halving', 'income'] as const) {
      expect({ key, micro: dryLines[key]!.micro }).toEqual({
        key,
        micro: soFar.lines[key].toString(),
      });
    }

    // The operator stakes 50 SSL of the deposit in this first month.
    const staking = page.getByTestId('staking-panel');
    await staking.getByTestId('stake-amount').fill('50');
    await staking.getByTestId('stake-submit').click();
    await page
      .getByTestId('stake-confirm-dialog')
      .getByRole('button', { name: 'Stake 50.00 SSL' })
      .click();
    await waitForText(staking.getByTestId('stake-success'), 'Staked 50.00 SSL');

    // The month ends: an hour later the monthly job pays it.
    const firstPool = await poolFacts(stack.db, first);
    await passMonthEnd(serverId, first);
    const firstApi = await waitForPaidMonth(stack, operator, first);
    const firstExpected = expectedMonth({
      tier: TIER,
      period: first,
      // The facts as the run found them (read again: a history writer may add to them).
      facts: await storedFacts(stack.db, serverId, first),
      enrolledAt,
      stakeAtStartMicro: 0n,
      stakeAtEndMicro: 50_000_000n,
      requiredBeforeMicro: 0n,
      autoStakePercent: 0,
      ...firstPool,
    });
    // The day at 90% slashed and froze something: the lines are not trivially equal.
    expect(firstExpected.lines.frozen).toBeGreaterThan(0n);
    expect(firstExpected.lines.reliability).toBeLessThan(firstExpected.lines.base);

    await page.reload();
    await panel.getByTestId('earnings-period').waitFor();
    // The server's month moved on: the select offers the ended month and the new one.
    expect(await panel.getByTestId('earnings-period').inputValue()).toBe(second);
    await showMonth(panel, first, 'statement');
    expectShown(await readShown(panel), firstApi, serverId, firstExpected);
    expect(await panel.getByTestId('statement-status').innerText()).toMatch(
      /^Paid on [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
    );
    const base = table.getByRole('row', { name: /^Base reward/ });
    expect(await base.innerText()).toContain(`${formatSsl(firstExpected.lines.base)} SSL`);
    // The tier's month as the wizard and the Economics page promise it (tierMonthlyIncome):
    // the base reward, and the client rewards apart from it.
    const income = tierMonthlyIncome(VPS_TIERS.find((tier) => tier.id === TIER)!);
    expect(income).toMatchObject({ baseSsl: 625, clientsSsl: 250, totalSsl: 875 });
    expect(
      await panel
        .locator(`[data-testid="server-statement"][data-server-id="${serverId}"]`)
        .getByTestId('statement-tier-income')
        .innerText(),
    ).toBe(
      'A full month at 100% reliability: base reward 625 SSL + client rewards up to 250 SSL (25 clients x 10 SSL) = up to 875 SSL a month. The base reward line below is the base alone; client rewards are the Subscriptions line.',
    );

    // Automatic staking of half of each payout, from the next month on.
    await staking.getByTestId('auto-stake-percent').fill('50');
    await staking.getByTestId('auto-stake-save').click();
    await staking.getByTestId('auto-stake-success').waitFor();

    await writeMonth(operator, serverId, second, 99, false);
    const secondPool = await poolFacts(stack.db, second);
    await passMonthEnd(serverId, second);
    const secondApi = await waitForPaidMonth(stack, operator, second);
    const secondExpected = expectedMonth({
      tier: TIER,
      period: second,
      facts: await storedFacts(stack.db, serverId, second),
      enrolledAt,
      stakeAtStartMicro: 50_000_000n,
      stakeAtEndMicro: 50_000_000n,
      requiredBeforeMicro: firstExpected.lines.halving,
      autoStakePercent: 50,
      ...secondPool,
    });

    await page.reload();
    await panel.getByTestId('earnings-period').waitFor();
    await showMonth(panel, second, 'statement');
    const secondShown = await readShown(panel);
    expectShown(secondShown, secondApi, serverId, secondExpected);
    // What staking changed: half of the payout staked, and 12% a year on the 50 SSL held.
    expect(firstExpected.totals.autoStakedMicro).toBe(0n);
    expect(secondExpected.totals.autoStakedMicro).toBeGreaterThan(0n);
    expect(firstExpected.staking.incomeMicro).toBe(0n);
    expect(secondExpected.staking.incomeMicro).toBe(500_000n);

    // The rewards wait 60 days; the deposit less the stake can be withdrawn now.
    const wallet = page.getByTestId('node-wallet');
    expect(await waitForText(wallet.getByTestId('wallet-available'), '150.00 SSL')).toBe(
      '150.00 SSL',
    );
    const destination = Keypair.generate().publicKey.toBase58();
    await wallet.getByTestId('withdraw').click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw SSL' });
    await dialog.getByLabel('Amount (SSL)').fill('100');
    await dialog.getByLabel('Solana address to receive SOL').fill(destination);
    await dialog.getByRole('button', { name: 'Review withdrawal' }).click();
    // The confirmation (fee and net) is a dialog of its own over the form.
    await page
      .getByRole('dialog', { name: 'Confirm withdrawal' })
      .getByRole('button', { name: 'Confirm withdrawal' })
      .click();
    expect(await dialog.getByTestId('withdraw-success').innerText()).toBe(
      withdrawalSuccessMessage(100_000_000n, destination),
    );
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await wallet.locator('[data-testid="withdrawal"][data-status="confirmed"]').waitFor({
      timeout: 20_000,
    });
    const config = (await (
      await fetch(`${stack.baseUrl}${DEPOSIT_ROUTES.apiConfig}`)
    ).json()) as SolanaConfig;
    const connection = new Connection(stack.chain!.url, 'confirmed');
    expect(BigInt(await connection.getBalance(new PublicKey(destination)))).toBe(
      withdrawalQuote(100_000_000n, config.conversionRate).lamports,
    );

    // The statements stay as paid; nothing was paid twice by the jobs that ran on each move.
    expect(await fetchEarnings(stack, operator, first)).toEqual(firstApi);
    const rewards = await stack.db.query<{ external_ref: string }>(
      `SELECT external_ref FROM ledger_transactions WHERE type IN ('monthly_reward', 'staking_reward')
       ORDER BY external_ref`,
    );
    expect(rewards.map((row) => row.external_ref)).toEqual([
      `reward:${serverId}:${first}`,
      `reward:${serverId}:${second}`,
      `stake-income:${operator.uuid}:${second}`,
    ]);
    expect(await ledgerViolations(stack.db.url)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  }, 240_000);
});
