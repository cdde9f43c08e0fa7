import { randomBytes, randomUUID } from 'node:crypto';
import {
  ECONOMICS,
  NODES_MESSAGES,
  PRICING,
  UPLOAD_SERVER_MESSAGES,
  VPS_TIERS,
  tierMonthlyIncome,
} from '@scn/proto';
import type { Locator, Page } from 'playwright-core';
import { MOBILE } from './support/browser';
import { LATIN_ALLOWED as SHARED_LATIN_ALLOWED } from './support/i18n';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The node dashboard in the browser (docs/product/screens.md#dashboards-and-information-pages Node dashboard and setup wizard, docs/product/states.md#subscription-and-reliability-states server
 * reliability, docs/product/constants.md#market-prices-and-limits VPS tiers) against the real control plane and database.
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

/** Whether `first` comes before `second` in the document. */
async function comesBefore(first: Locator, second: Locator): Promise<boolean> {
  const handle = await second.elementHandle();
  return first.evaluate(
    (a, b) => Boolean(b && a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING),
    handle,
  );
}

const ssl = (amount: number) => new Intl.NumberFormat('en-US').format(amount);

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
  it('shows the empty list, the node wallet and the Node Dashboard header', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);
    const problems = collectProblems(page);

    expect(await page.getByTestId('dashboard-email').innerText()).toBe(account.email);
    await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
    expect(
      await waitForText(page.getByTestId('node-wallet').getByTestId('wallet-balance'), '0.00'),
    ).toBe('0.00');
    expect(problems.pageErrors).toEqual([]);
  });

  it('leads an empty dashboard with setting up a VPS node, before adding a manual server and the wallet', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);
    const empty = page.getByTestId('servers-empty');
    await empty.waitFor();
    const setUp = empty.getByRole('button', { name: 'Set Up a VPS Node' });
    const addManual = empty.getByRole('button', { name: 'Add New Server' });
    // The only Add New Server is the empty state's, after the VPS setup.
    expect(await page.getByRole('button', { name: 'Add New Server' }).count()).toBe(1);
    expect(await comesBefore(setUp, addManual)).toBe(true);
    // The servers section comes first on the page: before Quick Setup and the wallet.
    expect(await comesBefore(empty, page.getByTestId('quick-setup-toggle'))).toBe(true);
    expect(await comesBefore(empty, page.getByTestId('node-wallet'))).toBe(true);

    // Once there is a server, the usual order: wallet, Quick Setup, servers.
    await insertServer(account.uuid, 'First node');
    await page.getByTestId('refresh-servers').click();
    await page.getByTestId('server-card').waitFor();
    expect(
      await comesBefore(page.getByTestId('node-wallet'), page.getByTestId('server-card')),
    ).toBe(true);
    expect(await page.getByTestId('add-server').isVisible()).toBe(true);
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
    // Each tier's promise is @scn/proto's tierMonthlyIncome, the statement's and Economics' source.
    for (const tier of VPS_TIERS) {
      const income = tierMonthlyIncome(tier);
      const card = wizard.getByTestId(`tier-${tier.id}`);
      expect(await card.getByTestId('tier-income').innerText()).toContain(
        `Up to ${ssl(income.totalSsl)} SSL / month`,
      );
      expect(await card.getByTestId('tier-income-breakdown').innerText()).toBe(
        `${ssl(income.baseSsl)} SSL base + up to ${ssl(income.clientsSsl)} SSL from clients ` +
          `(${income.maxClients} × ${ssl(income.perClientSsl)} SSL), at 100% reliability`,
      );
    }
    expect(
      await wizard.getByTestId('tier-tier1').getByTestId('tier-income-breakdown').innerText(),
    ).toBe('250 SSL base + up to 100 SSL from clients (10 × 10 SSL), at 100% reliability');
    // The terms of the money, before anything is generated.
    expect(await wizard.getByTestId('setup-wizard-freeze').innerText()).toContain(
      `frozen for ${PRICING.operatorRewardFrozenDays} days`,
    );
    expect(await wizard.getByTestId('setup-wizard-fee').innerText()).toContain(
      `${ECONOMICS.withdrawalProtocolFeePercent}% protocol fee: of 100 SSL withdrawn, you receive ${100 - ECONOMICS.withdrawalProtocolFeePercent} SSL`,
    );
    expect(await wizard.getByTestId('setup-wizard-income-terms').innerText()).toContain(
      `${PRICING.operatorRewardSsl} SSL for each client`,
    );

    // The server is named first: a default, refused when blank.
    const name = wizard.getByLabel('Server name');
    expect(await name.inputValue()).toBe('VPS node 1');
    await wizard.getByRole('radio', { name: /2 Cores \/ 2GB RAM/ }).check();
    expect(await generate.isDisabled()).toBe(false);
    await name.fill('   ');
    await generate.click();
    await waitForText(wizard.getByTestId('setup-wizard-name-error'), 'Give the server a name');
    expect(
      await suite.stack.db.query('SELECT id FROM enrollment_tokens WHERE owner_uuid = $1', [
        account.uuid,
      ]),
    ).toEqual([]);
    await name.fill('Frankfurt VPS');
    await generate.click();

    const command = (await wizard.getByTestId('install-command').innerText()).trim();
    expect(command).toMatch(INSTALL_COMMAND);
    const tokens = await suite.stack.db.query<{
      tier: string;
      used_at: Date | null;
      server_name: string;
    }>('SELECT tier, used_at, server_name FROM enrollment_tokens WHERE owner_uuid = $1', [
      account.uuid,
    ]);
    expect(tokens).toEqual([{ tier: 'tier2', used_at: null, server_name: 'Frankfurt VPS' }]);

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
    const expiry = await wizard.getByTestId('token-expiry').innerText();
    expect(expiry).toContain('expires on');
    expect(expiry).toContain('Frankfurt VPS (2 Cores / 2GB RAM)');

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

    // Cancel deletes nothing.
    await card.getByRole('button', { name: 'Delete Frankfurt 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await confirm.waitFor();
    expect(await confirm.getByTestId('delete-server-consequence').innerText()).toBe(
      'Delete Frankfurt 1? It leaves the network at once: its clients lose it from their subscriptions, with their unused paid time refunded, and its agent can no longer report. This cannot be undone.',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(
      await suite.stack.db.query('SELECT id FROM servers WHERE id = $1', [serverId]),
    ).toHaveLength(1);
    expect(await page.getByTestId('server-card').count()).toBe(1);

    await card.getByRole('button', { name: 'Delete Frankfurt 1' }).click();
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete Server' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
    expect(await suite.stack.db.query('SELECT id FROM servers WHERE id = $1', [serverId])).toEqual(
      [],
    );
  });

  it('says on a banned server why it was banned and what became of its rewards', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const serverId = await insertServer(account.uuid, 'Oslo 1');
    await suite.stack.db.query(
      `UPDATE servers SET reliability_at_report = 40, below_threshold_since = now() - interval '15 days',
                          banned_at = now() WHERE id = $1`,
      [serverId],
    );
    const page = await openDashboard(account);
    const card = page.getByTestId('server-card');
    await card.waitFor();
    expect(await card.getByTestId('server-badges').textContent()).toBe('Banned');
    expect(await card.getByTestId('server-banned-reason').innerText()).toBe(NODES_MESSAGES.banned);
  });

  it("says where each server's TLS certificate comes from, and how to get a trusted one", async () => {
    const account = await registerAccount(suite.stack, 'node');
    const trusted = await insertServer(account.uuid, 'Trusted 1');
    const fallback = await insertServer(account.uuid, 'Fallback 1');
    const tls = { security: 'tls', sni: 'n0123456789abcdef.nodes.scn.test', network: 'tcp' };
    await suite.stack.db.query(`UPDATE servers SET inbound = $2::jsonb WHERE id = $1`, [
      trusted,
      JSON.stringify({
        ...tls,
        certificateSource: 'acme',
        certificateName: 'n0123456789abcdef.nodes.scn.test',
        certificateNotAfterMs: String(Date.UTC(2027, 0, 15, 12)),
      }),
    ]);
    await suite.stack.db.query(`UPDATE servers SET inbound = $2::jsonb WHERE id = $1`, [
      fallback,
      JSON.stringify({
        ...tls,
        sni: '203.0.113.7',
        certificateSha256: 'ab'.repeat(32),
        certificateSource: 'self_signed',
        certificateName: '203.0.113.7',
        certificateProblem: 'the CA could not connect to port 80',
      }),
    ]);
    const page = await openDashboard(account);
    const cardOf = (id: string) => page.locator(`[data-server-id="${id}"]`);
    const trustedLine = cardOf(trusted).getByTestId('server-certificate');
    await trustedLine.waitFor();
    expect(await trustedLine.innerText()).toMatch(
      /^Trusted certificate for n0123456789abcdef\.nodes\.scn\.test, renews before Jan 1[45], 2027/,
    );
    const fallbackLine = cardOf(fallback).getByTestId('server-certificate');
    expect(await fallbackLine.innerText()).toContain(
      'Self-signed certificate (apps that cannot pin it will fail): the CA could not connect to port 80',
    );
    expect(await fallbackLine.getByTestId('server-certificate-hint').innerText()).toContain(
      'open TCP port 80',
    );
    const command = fallbackLine.getByTestId('server-certificate-command');
    expect(await command.innerText()).toBe('scn-agent certificate --domain <your.domain>');
    expect(await command.getAttribute('dir')).toBe('ltr');
    // A trusted certificate needs no advice.
    expect(await trustedLine.getByTestId('server-certificate-command').count()).toBe(0);

    // In Persian on a phone: the advice in Persian, the command left to right, nothing past the
    // screen's edge (the node's own reason stays as the agent wrote it).
    const phone = await openPage({ account, locale: 'fa-IR', viewport: MOBILE });
    await phone.goto('/node-dashboard');
    const card = phone.locator(`[data-testid="server-card"][data-server-id="${fallback}"]`);
    const hint = card.getByTestId('server-certificate-hint');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('درگاه TCP');
    expect(await untranslated(hint)).toEqual([]);
    expect(await card.getByTestId('server-certificate-command').getAttribute('dir')).toBe('ltr');
    expect(await overflowing(card)).toEqual([]);
  });

  it('shows a toast when reliability moves by 10 points or more between refreshes', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const serverId = await insertServer(account.uuid, 'Toast node');
    const page = await openDashboard(account);
    await page.getByTestId('server-card').waitFor();

    // Three hours without a report: docs/product/states.md#subscription-and-reliability-states takes 5 points per full hour off.
    await suite.stack.db.query(
      `UPDATE servers SET last_report_at = now() - interval '3 hours 5 minutes', reliability_at_report = 96 WHERE id = $1`,
      [serverId],
    );
    await page.getByTestId('refresh-servers').click();
    const toast = page.getByTestId('toasts').getByText(/Reliability of Toast node dropped/);
    await toast.waitFor();
  });

  it('Add New Server explains the rules and shows the control plane refusing an address', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);
    await page.getByRole('button', { name: 'Add New Server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Server' });
    expect(await dialog.getByTestId('add-server-shared').innerText()).toBe(
      UPLOAD_SERVER_MESSAGES.sharedCredentials,
    );
    // The new server is prompted for a name: a numbered default, or the link's own name.
    const name = dialog.getByLabel('Server name');
    expect(await name.inputValue()).toBe('My server 1');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await waitForText(dialog.getByTestId('add-server-error'), 'VLESS string is required');
    await dialog.getByLabel('VLESS connection string').fill('vmess://nope');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await waitForText(
      dialog.getByTestId('add-server-error'),
      'No valid VLESS connection string found',
    );
    // A documentation address (TEST-NET-2): refused by the control plane before any packet.
    const link =
      'vless://0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab@198.51.100.9:8443?security=tls&sni=box.example.net&type=tcp';
    await dialog.getByLabel('VLESS connection string').fill(`${link}#Oslo%20box`);
    expect(await name.inputValue()).toBe('Oslo box');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    const refused = UPLOAD_SERVER_MESSAGES.addressRefused(
      '198.51.100.9',
      '198.51.100.9',
      'documentation',
    );
    expect(await waitForText(dialog.getByTestId('add-server-error'), refused)).toBe(refused);
    const rows = await suite.stack.db.query('SELECT id FROM servers WHERE owner_uuid = $1', [
      account.uuid,
    ]);
    expect(rows).toEqual([]);
  });

  it('badges a server without the agent as shared credentials, on the dashboard and the market', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const uuid = randomUUID();
    const link = `vless://${uuid}@203.0.113.44:8443?security=none&type=tcp`;
    // As a passing VLESS check leaves it (the check itself: control-plane manual-servers e2e).
    const [checked, pending] = [randomUUID(), randomUUID()];
    await suite.stack.db.query(
      `INSERT INTO servers (id, owner_uuid, name, source, host, port, inbound, vless_string,
         ping_ms, reliability_at_report, last_report_at, checked_at)
       VALUES ($1, $3, 'Garage box', 'manual', '203.0.113.44', 8443, '{"security":"none","network":"tcp"}'::jsonb,
         $4, 30, 100, now(), now()),
              ($2, $3, 'Attic box', 'manual', '203.0.113.45', 8443, '{"security":"none","network":"tcp"}'::jsonb,
         $4, NULL, 0, NULL, NULL)`,
      [checked, pending, account.uuid, `${link}#Garage%20box`],
    );
    const page = await openDashboard(account);
    const garage = page.getByTestId('server-card').filter({ hasText: 'Garage box' });
    await garage.waitFor();
    expect(await garage.getByTestId('server-shared').innerText()).toMatch(/shared credentials/i);
    expect(await garage.getByTestId('server-check-state').innerText()).toMatch(
      /^VLESS check passed/,
    );
    expect(await garage.getByTestId('server-shared-note').innerText()).toBe(
      UPLOAD_SERVER_MESSAGES.sharedCredentials,
    );
    expect(await garage.getByTestId('server-vless').textContent()).toBe(`${link}#Garage%20box`);
    const attic = page.getByTestId('server-card').filter({ hasText: 'Attic box' });
    expect(await attic.getByTestId('server-check-state').innerText()).toBe(
      'Waiting for the first VLESS check: the server is listed once one passes.',
    );

    await page.goto('/servers?search=Garage%20box');
    const card = page.getByTestId('market-server-card').filter({
      has: page.getByTestId('market-card-name').getByText('Garage box', { exact: true }),
    });
    await card.waitFor();
    expect(await card.getByTestId('market-card-shared').innerText()).toMatch(/shared credentials/i);
    expect(await card.getByTestId('market-card-price').innerText()).toBe('Free');
    // Unchecked: not on the market.
    await page.goto('/servers?search=Attic%20box');
    await page.getByTestId('servers-empty').waitFor();
  });

  it('adds a server at an IPv6 address: says why an unbracketed one is refused, refuses a documentation one by its canonical form, shows a stored one bracketed', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openDashboard(account);
    await page.getByRole('button', { name: 'Add New Server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Server' });
    const id = '0f9d7f5c-1a2b-4c3d-8e4f-0123456789ab';
    await dialog
      .getByLabel('VLESS connection string')
      .fill(`vless://${id}@2001:db8::9:8443?security=tls&type=tcp`);
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await waitForText(dialog.getByTestId('add-server-error'), 'IPv6 address must be in brackets');
    // Parameters the product does not model, on a shape a server without the agent may have.
    const query =
      'security=tls&sni=box.example.net&type=tcp&headerType=http&host=cdn.example.net&path=%2Fws&alpn=h2%2Chttp%2F1.1&spx=%2F';
    await dialog
      .getByLabel('VLESS connection string')
      .fill(`vless://${id}@[2001:DB8:0::9]:8443?${query}`);
    await dialog.getByLabel('Server name').fill('IPv6 box');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    // Read and canonicalized, then refused by the address policy (documentation
    // range, RFC 3849) before any packet; the upload of a checked server keeping every
    // parameter is the control plane's subscription-feed and manual-servers e2e.
    const refused = UPLOAD_SERVER_MESSAGES.addressRefused(
      '2001:db8::9',
      '2001:db8::9',
      'documentation',
    );
    expect(await waitForText(dialog.getByTestId('add-server-error'), refused)).toBe(refused);
    expect(
      await suite.stack.db.query('SELECT id FROM servers WHERE owner_uuid = $1', [account.uuid]),
    ).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // As a passing VLESS check stores it: canonical host column, the link rebuilt whole.
    const stored = `vless://${id}@[2001:db8::9]:8443?${query}#IPv6%20box`;
    await suite.stack.db.query(
      `INSERT INTO servers (id, owner_uuid, name, source, host, port, inbound, vless_string,
         ping_ms, reliability_at_report, last_report_at, checked_at)
       VALUES ($1, $2, 'IPv6 box', 'manual', '2001:db8::9', 8443, '{"security":"tls","network":"tcp"}'::jsonb,
         $3, 30, 100, now(), now())`,
      [randomUUID(), account.uuid, stored],
    );
    await page.reload();
    const card = page.getByTestId('server-card').filter({ hasText: 'IPv6 box' });
    await waitForText(card.getByTestId('server-address'), '[2001:db8::9]:8443');
    expect(await card.getByTestId('server-vless').textContent()).toBe(stored);
  });

  it('Node Configuration shows the server as the control plane knows it and saves name, country and location', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const serverId = await insertServer(account.uuid, 'Frankfurt 1');
    await suite.stack.db.query(
      `UPDATE servers SET country = 'DE', location = 'Frankfurt', agent_version = '0.1.0',
         core_state = 'running', applied_client_set_version = 2,
         inbound = $2::jsonb, hardware = $3::jsonb WHERE id = $1`,
      [
        serverId,
        JSON.stringify({
          security: 'reality',
          sni: 'www.example.com',
          fp: 'chrome',
          pbk: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
          sid: '6ba85179e30d4fc2',
          flow: 'xtls-rprx-vision',
          network: 'tcp',
        }),
        JSON.stringify({
          os: 'Debian GNU/Linux 12 (bookworm)',
          osRelease: '6.1.0-18-amd64',
          arch: 'x64',
          cpuCores: 2,
          cpuModel: 'AMD EPYC 7B13',
          cpuGhz: 2.45,
          ramBytes: String(2 * 1024 ** 3),
          diskBytes: String(40 * 1024 ** 3),
        }),
      ],
    );
    await suite.stack.db.query('UPDATE server_client_sets SET version = 3 WHERE server_id = $1', [
      serverId,
    ]);
    const page = await openDashboard(account);
    const problems = collectProblems(page);
    const card = page.getByTestId('server-card');
    expect(await card.getByTestId('server-place').innerText()).toBe('Frankfurt, Germany');

    await card.getByRole('button', { name: 'Configure Frankfurt 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Node Configuration' });
    await dialog.getByTestId('node-config-facts').waitFor();
    expect(await dialog.getByTestId('node-config-id').innerText()).toContain(serverId);
    expect(await dialog.getByTestId('node-config-tier').innerText()).toBe(
      'Tier 2 (2 Cores / 2GB RAM) · up to 25 clients',
    );
    expect(await dialog.getByTestId('node-config-address').innerText()).toBe('203.0.113.7:443');
    expect(await dialog.getByTestId('node-config-agent-version').innerText()).toBe('0.1.0');
    expect(await dialog.getByTestId('node-config-core').innerText()).toBe('running');
    expect(await dialog.getByTestId('node-config-clients').innerText()).toBe('0 of 25');
    expect(await dialog.getByTestId('node-config-client-set').innerText()).toBe(
      'v3 pushed, v2 applied: the node is catching up',
    );
    const inbound = await dialog.getByTestId('node-config-inbound').innerText();
    for (const value of [
      'reality',
      'www.example.com',
      'chrome',
      '6ba85179e30d4fc2',
      'xtls-rprx-vision',
      'tcp',
    ]) {
      expect(inbound).toContain(value);
    }
    const hardware = await dialog.getByTestId('node-config-hardware').innerText();
    expect(hardware).toContain('Debian GNU/Linux 12 (bookworm)');
    expect(hardware).toContain('2 cores · AMD EPYC 7B13 · 2.45 GHz');
    expect(hardware).toContain('2 GiB');
    expect(hardware).toContain('40 GiB');

    // The form starts from the saved settings; nothing changed, nothing to save.
    const name = dialog.getByLabel('Name');
    const country = dialog.getByLabel('Country');
    const location = dialog.getByLabel('Location');
    expect(await name.inputValue()).toBe('Frankfurt 1');
    expect(await country.inputValue()).toBe('DE');
    expect(await location.inputValue()).toBe('Frankfurt');
    const save = dialog.getByRole('button', { name: 'Save Changes' });
    expect(await save.isDisabled()).toBe(true);

    // A blank name is refused beside the field, and nothing is sent.
    await name.fill('   ');
    await save.click();
    await waitForText(dialog.getByTestId('node-config-name-error'), 'Name is required');
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    await name.fill('Helsinki 1');
    await country.selectOption('FI');
    await location.fill('Helsinki, Hetzner HEL1');
    await save.click();
    await waitForText(dialog.getByTestId('node-config-saved'), 'Server settings saved');
    expect(await save.isDisabled()).toBe(true);
    expect(await dialog.locator('.dialog__description').innerText()).toBe('Helsinki 1');
    const [row] = await suite.stack.db.query<{ name: string; country: string; location: string }>(
      'SELECT name, country, location FROM servers WHERE id = $1',
      [serverId],
    );
    expect(row).toEqual({ name: 'Helsinki 1', country: 'FI', location: 'Helsinki, Hetzner HEL1' });
    // The card behind the dialog (inert and hidden from the accessibility tree) shows it at once.
    expect(
      await card.getByRole('heading', { name: 'Helsinki 1', includeHidden: true }).count(),
    ).toBe(1);
    expect(await card.getByTestId('server-place').innerText()).toBe(
      'Helsinki, Hetzner HEL1, Finland',
    );

    // Clearing the country and location is a change too.
    await country.selectOption('');
    await location.fill('');
    await save.click();
    await waitForText(dialog.getByTestId('node-config-saved'), 'Server settings saved');
    expect(
      await suite.stack.db.query('SELECT country, location FROM servers WHERE id = $1', [serverId]),
    ).toEqual([{ country: null, location: null }]);
    expect(await card.getByTestId('server-place').count()).toBe(0);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Reopened, it reads the saved settings again; a server gone meanwhile gets the server's word.
    await card.getByRole('button', { name: 'Configure Helsinki 1' }).click();
    await dialog.getByTestId('node-config-facts').waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Helsinki 1');
    expect(await dialog.getByLabel('Country').inputValue()).toBe('');
    await suite.stack.db.query('DELETE FROM servers WHERE id = $1', [serverId]);
    await dialog.getByLabel('Name').fill('Gone');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await waitForText(dialog.getByTestId('node-config-error'), 'Server not found');
    expect(problems.pageErrors).toEqual([]);
  });

  it('Node Configuration changes the transport and regenerates the port after a confirm step, showing it pending', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const serverId = await insertServer(account.uuid, 'Paris 1');
    await suite.stack.db.query(
      `UPDATE servers SET core = 'v2ray', plan_port = 24000, plan_security = 'tls',
         plan_network = 'tcp', plan_revision = 1, port = 24000, inbound = $2::jsonb WHERE id = $1`,
      [
        serverId,
        JSON.stringify({
          security: 'tls',
          sni: 'paris.example.net',
          fp: 'chrome',
          network: 'tcp',
          certificateSha256: 'ab'.repeat(32),
          planRevision: '1',
        }),
      ],
    );
    const page = await openDashboard(account);
    const problems = collectProblems(page);
    const card = page.getByTestId('server-card');
    expect(await card.getByTestId('server-pending').count()).toBe(0);
    await card.getByRole('button', { name: 'Configure Paris 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Node Configuration' });
    const section = dialog.getByTestId('node-config-transport');
    await section.waitFor();
    expect(await dialog.getByTestId('node-config-pin').innerText()).toBe('ab'.repeat(32));
    expect(await dialog.getByTestId('node-config-plan-port').innerText()).toContain('24000');
    // v2ray offers TLS over TCP or WebSocket only.
    const select = section.getByLabel('Transport');
    expect(await select.locator('option').allInnerTexts()).toEqual([
      'TLS over TCP',
      'TLS over WebSocket',
    ]);
    await select.selectOption('tls/ws');
    // Asked first, saying that every client's link changes; Cancel changes nothing.
    await section.getByTestId('node-config-transport-apply').click();
    const confirmTransport = page.getByRole('dialog', { name: 'Change the transport?' });
    await confirmTransport.waitFor();
    expect(await confirmTransport.getByTestId('transport-confirm-consequence').innerText()).toBe(
      'Paris 1 will serve TLS over WebSocket instead of TLS over TCP, so every client’s link to it changes.',
    );
    expect(await confirmTransport.innerText()).toContain('refreshes the subscription');
    await confirmTransport.getByRole('button', { name: 'Cancel' }).click();
    await confirmTransport.waitFor({ state: 'detached' });
    expect(
      await suite.stack.db.query(
        'SELECT plan_network, plan_revision::int AS revision FROM servers WHERE id = $1',
        [serverId],
      ),
    ).toEqual([{ plan_network: 'tcp', revision: 1 }]);
    await section.getByTestId('node-config-transport-apply').click();
    await confirmTransport.getByRole('button', { name: 'Change transport' }).click();
    await confirmTransport.waitFor({ state: 'detached' });
    await waitForText(
      section.getByTestId('node-config-transport-success'),
      'Transport changed: the node applies it within a minute',
    );
    await section.getByTestId('node-config-pending').waitFor();
    expect(
      await suite.stack.db.query(
        'SELECT plan_network, plan_revision::int AS revision FROM servers WHERE id = $1',
        [serverId],
      ),
    ).toEqual([{ plan_network: 'ws', revision: 2 }]);

    // The emergency regeneration asks first; Cancel changes nothing.
    await section.getByTestId('node-config-regenerate').click();
    await section.getByTestId('node-config-regenerate-confirm').waitFor();
    await section.getByRole('button', { name: 'Cancel' }).click();
    await section.getByTestId('node-config-regenerate').click();
    await section.getByTestId('node-config-regenerate-yes').click();
    await section.getByText(/^New port \d+: the node applies it/).waitFor();
    const [row] = await suite.stack.db.query<{ plan_port: number }>(
      'SELECT plan_port FROM servers WHERE id = $1',
      [serverId],
    );
    expect(row?.plan_port).not.toBe(24000);
    expect(await dialog.getByTestId('node-config-plan-port').innerText()).toContain(
      String(row?.plan_port),
    );
    // Rate-limited: the button waits until the interval has passed.
    expect(await section.getByTestId('node-config-regenerate').isDisabled()).toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await card.getByTestId('server-pending').waitFor();
    expect(problems.pageErrors).toEqual([]);
  });
});

/**
 * Latin words a Persian page may show (docs/i18n.md): the suites' shared list of names, units and
 * protocol names, and the operating systems the setup wizard names.
 */
const LATIN_ALLOWED = new Set([...SHARED_LATIN_ALLOWED, 'ubuntu', 'debian', 'linux']);

/**
 * Latin words in the visible text under `root` outside the allow-list, leaving out what stays
 * left to right on purpose (code, addresses: `dir="ltr"`).
 */
async function untranslated(root: Locator): Promise<string[]> {
  const words = await root.evaluate((element) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('[dir="ltr"], code, pre, [hidden], .sr-only')) continue;
      if (parent.getClientRects().length === 0) continue;
      found.push(...((node.textContent ?? '').match(/[A-Za-z][A-Za-z0-9]*/g) ?? []));
    }
    return found;
  });
  return words.filter((word) => !LATIN_ALLOWED.has(word.toLowerCase()));
}

/** Elements under `root` that reach past the edges of a phone's viewport. */
async function overflowing(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const width = document.documentElement.clientWidth;
    return [element, ...element.querySelectorAll('*')]
      .filter((el) => {
        const rect = el.getBoundingClientRect();
        return rect.width > 0 && (rect.right > width + 1 || rect.left < -1);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
  });
}

describe('node dashboard in Persian', () => {
  it('shows the empty dashboard and the setup wizard in Persian, right to left, on a phone', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openPage({ account, locale: 'fa-IR', viewport: MOBILE });
    const problems = collectProblems(page);
    await page.goto('/node-dashboard');
    await page.getByRole('heading', { level: 1, name: 'داشبورد نود' }).waitFor();
    expect(
      await page.evaluate(() => ({
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
      })),
    ).toEqual({ lang: 'fa', dir: 'rtl' });
    expect(await page.getByTestId('dashboard-email').innerText()).toBe(account.email);

    const empty = page.getByTestId('servers-empty');
    await empty.getByRole('heading', { name: 'هنوز سروری ندارید' }).waitFor();
    const setUp = empty.getByRole('button', { name: 'راه‌اندازی نود روی VPS' });
    expect(await comesBefore(setUp, empty.getByRole('button', { name: 'افزودن سرور جدید' }))).toBe(
      true,
    );
    const servers = page.locator('section.node-servers');
    expect(await untranslated(page.locator('.page-header'))).toEqual([]);
    expect(await untranslated(servers)).toEqual([]);
    expect(await overflowing(servers)).toEqual([]);
    await page.getByTestId('quick-setup-toggle').click();
    await page.getByTestId('quick-setup-panel').waitFor();
    expect(await untranslated(page.locator('section.quick-setup'))).toEqual([]);

    await setUp.click();
    const wizard = page.getByRole('dialog', { name: 'راه‌اندازی نود روی VPS' });
    await wizard.waitFor();
    expect(await wizard.getByLabel('نام سرور').inputValue()).toBe('نود VPS ۱');
    // Tier 1 in Persian digits: 250 + up to 100 = up to 350 SSL a month.
    const tier1 = wizard.getByTestId('tier-tier1');
    expect(await tier1.getByTestId('tier-income').innerText()).toContain('تا ۳۵۰ SSL در ماه');
    expect(await tier1.getByTestId('tier-income-breakdown').innerText()).toContain(
      '۲۵۰ SSL پاداش پایه + تا ۱۰۰ SSL از کاربران',
    );
    expect(await wizard.getByTestId('setup-wizard-freeze').innerText()).toContain('۶۰ روز');
    const fee = await wizard.getByTestId('setup-wizard-fee').innerText();
    expect(fee).toContain('۲۵٪ کارمزد پروتکل');
    expect(fee).toContain('۷۵ SSL');
    expect(await untranslated(wizard)).toEqual([]);
    expect(await overflowing(wizard)).toEqual([]);

    await wizard.getByRole('radio', { name: /۱ هسته/ }).check();
    await wizard.getByRole('button', { name: 'ساخت اسکریپت راه‌اندازی' }).click();
    // The command stays left to right inside the Persian dialog.
    const command = wizard.getByTestId('install-command');
    await command.waitFor();
    expect(
      await command.evaluate((code) => getComputedStyle(code.closest('[dir]') ?? code).direction),
    ).toBe('ltr');
    expect(await wizard.getByTestId('token-expiry').innerText()).toContain('نود VPS ۱');
    expect(await untranslated(wizard.getByTestId('token-expiry'))).toEqual([]);
    expect(await untranslated(wizard.getByTestId('setup-notes'))).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });
});
