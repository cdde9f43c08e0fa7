import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The node dashboard in the browser (spec 02 §2 Node dashboard and setup wizard, §4 server
 * reliability, spec 01 §9 VPS tiers) against the real control plane and database.
 */

const suite = browserSuite();
const { openPage } = suite;

const INSTALL_COMMAND =
  /curl -fsSL http:\/\/127\.0\.0\.1:\d+\/install\.sh \| sudo bash -s -- --token [A-Za-z0-9_-]{43} --tier tier2/;

async function openDashboard(account: Account): Promise<Page> {
  const page = await openPage({ account });
  await page.goto('/node-dashboard');
  await page.getByRole('heading', { level: 1, name: 'Node Dashboard' }).waitFor();
  return page;
}

/** A server as an enrolled agent leaves it after a fresh report (written straight to the DB). */
async function insertServer(ownerUuid: string, name: string): Promise<string> {
  const id = randomUUID();
  await suite.stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       active_clients, ping_ms, uptime_seconds, reliability_at_report, last_report_at)
     VALUES ($1, $2, $3, 'agent', 'tier2', $4, '203.0.113.7', 443, '{}'::jsonb, 3, 42, $5, 96, now())`,
    [id, ownerUuid, name, randomBytes(32).toString('hex'), 26 * 3600],
  );
  return id;
}

describe('node dashboard', () => {
  it('shows the empty list, the wallet placeholder and the Node Dashboard header', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);
    const problems = collectProblems(page);

    expect(await page.getByTestId('dashboard-email').innerText()).toBe(account.email);
    await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
    expect(await page.getByTestId('node-wallet').innerText()).toContain('No wallet data available');
    expect(problems.pageErrors).toEqual([]);
  });

  it('Quick Setup starts collapsed and remembers being opened', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);
    const toggle = page.getByTestId('quick-setup-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('quick-setup-panel').isVisible()).toBe(false);

    await toggle.click();
    await page.getByText('Run the setup command as root.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('quickSetupOpen'))).toBe('true');

    await page.reload();
    await page.getByText('Run the setup command as root.').waitFor();
    expect(await page.getByTestId('quick-setup-toggle').getAttribute('aria-expanded')).toBe('true');
  });

  it('the wizard generates a real install command for the chosen tier', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);

    await page.getByRole('button', { name: 'Set Up a VPS Node' }).click();
    const wizard = page.getByRole('dialog', { name: 'Set Up a VPS Node' });
    await wizard.waitFor();
    const generate = wizard.getByRole('button', { name: 'Generate Setup Script' });
    expect(await generate.isDisabled()).toBe(true);
    expect(await wizard.getByRole('radio').count()).toBe(4);
    // Badges are upper-cased by CSS: compare the text content.
    expect(await wizard.getByTestId('tier-tier2').textContent()).toContain('Recommended');
    expect(await wizard.getByTestId('tier-tier2').innerText()).toContain('875 SSL / month');

    await wizard.getByRole('radio', { name: /2 Cores \/ 2GB RAM/ }).check();
    expect(await generate.isDisabled()).toBe(false);
    await generate.click();

    const command = (await wizard.getByTestId('install-command').innerText()).trim();
    expect(command).toMatch(INSTALL_COMMAND);
    const tokens = await suite.stack.db.query<{ tier: string; used_at: Date | null }>(
      'SELECT tier, used_at FROM enrollment_tokens WHERE owner_uuid = $1',
      [account.uuid],
    );
    expect(tokens).toEqual([{ tier: 'tier2', used_at: null }]);

    const notes = await wizard.getByTestId('setup-notes').innerText();
    for (const note of [
      'about 5 minutes',
      '2 to 3 minutes',
      'Ubuntu or Debian only',
      'as root',
      '22, 80, 443 and 10000-65535',
    ]) {
      expect(notes).toContain(note);
    }
    expect(await wizard.getByTestId('token-expiry').innerText()).toContain('expires on');

    const copy = wizard.getByTestId('copy-install-command');
    await copy.click();
    expect(await waitForText(copy, 'Copied!')).toBe('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);

    await wizard.getByRole('button', { name: 'Back' }).click();
    expect(await wizard.getByRole('radio', { name: /2 Cores \/ 2GB RAM/ }).isChecked()).toBe(true);
  });

  it('lists a reporting server and deletes it through Confirm Deletion', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const serverId = await insertServer(account.uuid, 'Frankfurt 1');
    const page = await openDashboard(account);

    const card = page.getByTestId('server-card');
    await card.waitFor();
    expect(await card.getByRole('heading', { name: 'Frankfurt 1' }).count()).toBe(1);
    expect(await card.getByTestId('server-address').innerText()).toBe('203.0.113.7:443');
    expect(await card.getByTestId('server-uptime').innerText()).toBe('1d 2h');
    expect(await card.getByTestId('server-connections').innerText()).toBe('3');
    const reliability = card.getByTestId('server-reliability');
    expect(await reliability.innerText()).toMatch(/^\d+%$/);
    expect(await reliability.getAttribute('class')).toContain('node-tone--success');
    expect(await card.getByTestId('server-badges').textContent()).toBe('Available');
    expect(await card.innerText()).toContain('42 ms');

    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete Server' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
    expect(await suite.stack.db.query('SELECT id FROM servers WHERE id = $1', [serverId])).toEqual(
      [],
    );
  });

  it('shows a toast when reliability moves by 10 points or more between refreshes', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const serverId = await insertServer(account.uuid, 'Toast node');
    const page = await openDashboard(account);
    await page.getByTestId('server-card').waitFor();

    // Three hours without a report: spec 02 §4 takes 5 points per full hour off.
    await suite.stack.db.query(
      `UPDATE servers SET last_report_at = now() - interval '3 hours 5 minutes', reliability_at_report = 96 WHERE id = $1`,
      [serverId],
    );
    await page.getByTestId('refresh-servers').click();
    const toast = page.getByTestId('toasts').getByText(/Reliability of Toast node dropped/);
    await toast.waitFor();
  });

  it('adds a server from its VLESS string and shows its connection string', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);
    await page.getByRole('button', { name: 'Add New Server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Server' });
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await waitForText(dialog.getByTestId('add-server-error'), 'VLESS string is required');
    await dialog.getByLabel('VLESS connection string').fill('vmess://nope');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await waitForText(
      dialog.getByTestId('add-server-error'),
      'No valid VLESS connection string found',
    );
    const link =
      'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@198.51.100.9:8443?security=tls&sni=box.example.net&type=tcp';
    await dialog.getByLabel('VLESS connection string').fill(link);
    await dialog.getByLabel('Server name (optional)').fill('Garage box');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await waitForText(dialog.getByTestId('add-server-success'), 'Server uploaded successfully!');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Garage box').waitFor();
    const shown = await page.getByTestId('server-vless').textContent();
    expect(shown).toBe(`${link}#Garage%20box`);
    const rows = await suite.stack.db.query<{ source: string; host: string; port: number }>(
      'SELECT source, host, port FROM servers WHERE owner_uuid = $1',
      [account.uuid],
    );
    expect(rows).toEqual([{ source: 'manual', host: '198.51.100.9', port: 8443 }]);
  });
});
