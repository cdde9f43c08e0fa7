import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTH_MESSAGES } from '@scn/proto';
import type { Locator, Page } from 'playwright-core';
import { collectProblems, signUpFromLanding, uniqueEmail } from './support/portal';
import { freePort } from './support/stack';
import { browserSuite } from './support/suite';

/**
 * "Browser: the operator journey from signup to server visible on the dashboard,
 * using the wizard's command": a newcomer signs up as Node Operator in the browser, generates the
 * install command in the setup wizard, and the REAL agent (the built CLI, as install.sh runs it)
 * enrolls with the command's token against the stack's gRPC port and reports; the server then
 * shows on the dashboard with the address the agent reported.
 */

const suite = browserSuite();
const { openPage } = suite;

const ROOT = join(__dirname, '..', '..', '..');
const AGENT = join(ROOT, 'node-agent', 'dist', 'src', 'index.js');
const INSTALL_COMMAND =
  /^curl -fsSL http:\/\/127\.0\.0\.1:\d+\/install\.sh \| sudo bash -s -- --token ([A-Za-z0-9_-]{43}) --tier (tier1)$/;

interface AgentProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the built agent CLI with `args`; its output is kept for failure messages. */
function startAgent(args: string[]): AgentProcess {
  const child = spawn(process.execPath, [AGENT, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      output += String(error);
      resolve(null);
    });
  });
  return { child, output: () => output, exited };
}

/** SIGTERM (the daemon stops cleanly on it), SIGKILL after 5 s; resolves once it exited. */
async function stopAgent(agent: AgentProcess | undefined): Promise<void> {
  if (!agent || agent.child.exitCode !== null || agent.child.signalCode !== null) return;
  const timer = setTimeout(() => agent.child.kill('SIGKILL'), 5_000);
  agent.child.kill('SIGTERM');
  await agent.exited;
  clearTimeout(timer);
}

/**
 * Waits for a server card showing `address`: the realtime event `server-list-updated` normally
 * refreshes the list by itself; if it has not after a few seconds, the Refresh button does.
 */
async function waitForServerCard(page: Page, address: string): Promise<Locator> {
  const card = page
    .getByTestId('server-card')
    .filter({ has: page.getByTestId('server-address').getByText(address, { exact: true }) });
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await card.waitFor({ timeout: 4_000 });
      return card;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.getByTestId('refresh-servers').click();
    }
  }
}

describe('operator journey', () => {
  let workDir: string;
  let agentRun: AgentProcess | undefined;

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'scn-operator-journey-'));
  });

  afterAll(async () => {
    await stopAgent(agentRun);
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('a newcomer signs up as Node Operator, runs the wizard command and sees the server on the dashboard', async () => {
    if (!existsSync(AGENT)) throw new Error(`Build first: npm run build (${AGENT} is missing)`);
    const { stack } = suite;
    const page = await openPage();
    const problems = collectProblems(page);
    const email = uniqueEmail('journey');

    // Sign up as Node Operator from the landing page: code by SMTP, terms, the node dashboard.
    expect(await signUpFromLanding(page, stack, 'node', email)).toBe(
      AUTH_MESSAGES.registrationSuccessTerms,
    );
    await page.waitForURL(`${stack.baseUrl}/node-dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Node Dashboard' }).waitFor();
    expect(await page.getByTestId('dashboard-email').innerText()).toBe(email);
    await page.getByRole('heading', { name: 'No servers yet' }).waitFor();

    // The setup wizard: a name for the server, tier 1, then the generated install command.
    await page.getByRole('button', { name: 'Set Up a VPS Node' }).click();
    const wizard = page.getByRole('dialog', { name: 'Set Up a VPS Node' });
    await wizard.waitFor();
    await wizard.getByLabel('Server name').fill('Journey node');
    await wizard.getByRole('radio', { name: /1 Core \/ 1GB RAM/ }).check();
    await wizard.getByRole('button', { name: 'Generate Setup Script' }).click();
    const command = (await wizard.getByTestId('install-command').innerText()).trim();
    const match = INSTALL_COMMAND.exec(command);
    expect(match).not.toBeNull();
    const [, token, tier] = match!;
    await wizard.getByRole('button', { name: 'Done' }).click();
    await wizard.waitFor({ state: 'detached' });

    // What install.sh does on the VPS, with the real agent on loopback: enroll, then run.
    const configPath = join(workDir, 'agent', 'config.json');
    const publicPort = await freePort();
    const enroll = startAgent([
      'enroll',
      ...['--server', `127.0.0.1:${stack.grpcPort}`],
      ...['--token', token!, '--tier', tier!],
      ...['--config', configPath],
      ...['--public-host', '127.0.0.1', '--public-port', String(publicPort)],
      ...['--core', 'v2ray', '--core-binary', '/usr/bin/v2ray'],
      ...['--core-work-dir', join(workDir, 'core')],
    ]);
    const enrollExit = await enroll.exited;
    if (enrollExit !== 0) throw new Error(`enroll exited with ${enrollExit}:\n${enroll.output()}`);
    expect(enroll.output()).toContain('Enrolled node');
    const used = await stack.db.query<{ used_at: Date | null }>(
      'SELECT e.used_at FROM enrollment_tokens e JOIN accounts a ON a.uuid = e.owner_uuid WHERE a.email = $1',
      [email],
    );
    expect(used).toEqual([{ used_at: expect.any(Date) }]);
    // Enrolled, not yet reported: the server is listed without an address.
    await waitForServerCard(page, 'Waiting for the first report');

    // The daemon without a proxy core (the browser journey needs no traffic): it reports at once.
    agentRun = startAgent(['run', '--config', configPath, '--no-core']);
    let card: Locator;
    try {
      card = await waitForServerCard(page, `127.0.0.1:${publicPort}`);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nagent output:\n${agentRun.output()}`);
    }
    expect(agentRun.child.exitCode).toBeNull();
    expect(await page.getByTestId('server-card').count()).toBe(1);
    expect(await card.getByTestId('server-reliability').innerText()).toMatch(/^\d+%$/);
    expect(await card.getByTestId('server-connections').innerText()).toBe('0');
    expect(await card.innerText()).toContain('1 Core / 1GB RAM');
    // The server enrolled with the name given in the wizard.
    expect(await card.getByRole('heading', { name: 'Journey node' }).count()).toBe(1);
    const servers = await stack.db.query<{
      name: string;
      tier: string;
      host: string;
      port: number;
    }>(
      `SELECT s.name, s.tier, s.host, s.port FROM servers s JOIN accounts a ON a.uuid = s.owner_uuid
        WHERE a.email = $1`,
      [email],
    );
    expect(servers).toEqual([
      { name: 'Journey node', tier: 'tier1', host: '127.0.0.1', port: publicPort },
    ]);
    expect(problems.pageErrors).toEqual([]);
  });
});
