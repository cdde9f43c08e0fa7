import { randomBytes, randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import type { Stack } from './stack';

/** An operator account written straight to the database (its servers are what matters). */
export async function insertOperator(stack: Stack): Promise<string> {
  const operator = randomUUID();
  await stack.db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name)
     VALUES ($1, $2, 'node', 'x', 'operator')`,
    [operator, `${operator}@example.com`],
  );
  return operator;
}

/** A listed server in Portugal as an enrolled agent leaves it after a fresh report. */
export async function insertListedServer(
  stack: Stack,
  server: { ownerUuid: string; name: string; host: string; port: number; location: string },
): Promise<void> {
  await stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       country, location, active_clients, ping_ms, uptime_seconds, reliability_at_report,
       last_report_at)
     VALUES ($1, $2, $3, 'agent', 'tier2', $4, $5, $6, $7::jsonb, 'PT', $8, 0,
       25, 72000, 100, now())`,
    [
      randomUUID(),
      server.ownerUuid,
      server.name,
      randomBytes(32).toString('hex'),
      server.host,
      server.port,
      JSON.stringify({ security: 'none', network: 'tcp' }),
      server.location,
    ],
  );
}

/** A server's card on /servers, by its name. */
export function marketCard(page: Page, name: string): Locator {
  return page
    .getByTestId('market-server-card')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
}

/**
 * From the dashboard: Browse Servers, select the named servers, Create Subscription, Confirm
 * Payment, then View Subscription, which
 * returns to the client dashboard. Answers the payment confirmation's price.
 */
export async function buyFromMarket(page: Page, baseUrl: string, names: readonly string[]) {
  await page.getByRole('link', { name: 'Browse Servers' }).first().click();
  await page.waitForURL(`${baseUrl}/servers`);
  for (const name of names) await marketCard(page, name).getByTestId('market-connect').click();
  const count = `${names.length} server${names.length === 1 ? '' : 's'} selected`;
  await page.getByTestId('selection-count').filter({ hasText: count }).waitFor();
  await page
    .getByRole('region', { name: 'Selected servers' })
    .getByRole('button', { name: 'Create Subscription' })
    .click();
  const create = page.getByRole('dialog', { name: 'Create Network Subscription' });
  await create.getByRole('button', { name: 'Create Subscription' }).click();
  const payment = page.getByRole('dialog', { name: 'Payment Confirmation' });
  const price = await payment.getByTestId('payment-price').innerText();
  await payment.getByRole('button', { name: 'Confirm Payment' }).click();
  await create.getByTestId('purchase-result').waitFor();
  await create.getByRole('button', { name: 'View Subscription' }).click();
  await page.waitForURL(`${baseUrl}/client-dashboard`);
  return { price };
}
