import { STAKING_MESSAGES, STAKING_ROUTES, type StakingResponse } from '@scn/proto';
import type { Page } from 'playwright-core';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { depositThroughChain } from './support/deposits';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * issue 18 §4 staking settings on the node dashboard, against the real control plane: an
 * operator funded through a real deposit on the local chain stakes, sets the automatic stake,
 * sees the node wallet and the stake move, and is told why an unstake is refused while locked.
 */

const suite = browserSuite({ solana: true });
const { openPage } = suite;

async function openDashboard(account: Account): Promise<Page> {
  const page = await openPage({ account });
  await page.goto('/node-dashboard');
  await page.getByRole('heading', { level: 1, name: 'Node Dashboard' }).waitFor();
  await page.getByTestId('staking-panel').getByTestId('stake-balance').waitFor();
  return page;
}

describe('staking settings', () => {
  it('an operator stakes from the node wallet, sets automatic staking, and cannot unstake while locked', async () => {
    const account = await registerAccount(suite.stack, 'node');
    await depositThroughChain(suite.stack, account, 20);
    const page = await openDashboard(account);
    const problems = collectProblems(page);
    const panel = page.getByTestId('staking-panel');
    const wallet = page.getByTestId('node-wallet');

    expect(await waitForText(wallet.getByTestId('wallet-balance'), '20.00')).toBe('20.00');
    expect(await waitForText(panel.getByTestId('stake-available'), '20.00 SSL')).toBe('20.00 SSL');
    expect(await panel.getByTestId('stake-balance').innerText()).toBe('0.00 SSL');

    // A malformed amount is refused in the page, before any call.
    await panel.getByTestId('stake-amount').fill('1.0000001');
    await panel.getByTestId('stake-submit').click();
    expect(await panel.getByTestId('stake-error').innerText()).toBe(STAKING_MESSAGES.amountInvalid);

    await panel.getByTestId('stake-amount').fill('12.5');
    await panel.getByTestId('stake-submit').click();
    expect(await waitForText(panel.getByTestId('stake-success'), 'Staked 12.50 SSL')).toBe(
      'Staked 12.50 SSL',
    );
    expect(await waitForText(panel.getByTestId('stake-balance'), '12.50 SSL')).toBe('12.50 SSL');
    expect(await panel.getByTestId('stake-available').innerText()).toBe('7.50 SSL');
    // The node wallet follows at once (the panel asks the app to reload it).
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '7.50')).toBe('7.50');
    expect(await panel.getByTestId('stake-locks').innerText()).toContain('12.50 SSL');
    // 12.5 x 12% / 12.
    expect(await panel.getByTestId('stake-income').innerText()).toBe('0.13 SSL');

    await panel.getByTestId('auto-stake-percent').fill('50');
    await panel.getByTestId('auto-stake-save').click();
    expect(
      await waitForText(
        panel.getByTestId('auto-stake-success'),
        STAKING_MESSAGES.autoStakeSaved(50),
      ),
    ).toBe(STAKING_MESSAGES.autoStakeSaved(50));

    await panel.getByTestId('stake-amount').fill('5');
    await panel.getByTestId('unstake-submit').click();
    const staking = (await (
      await fetch(`${suite.stack.baseUrl}${STAKING_ROUTES.staking(account.uuid)}`, {
        headers: { Authorization: `Bearer ${account.token}` },
      })
    ).json()) as StakingResponse;
    const lock = staking.data.locks[0]!;
    const refusal = STAKING_MESSAGES.stakeLocked(5_000_000n, 0n, lock);
    expect(refusal).toMatch(/^Only 0\.00 SSL of your stake is unlocked; you asked for 5\.00 SSL\./);
    expect(await waitForText(panel.getByTestId('stake-error'), refusal)).toBe(refusal);
    expect(await panel.getByTestId('stake-balance').innerText()).toBe('12.50 SSL');
    expect(await wallet.getByTestId('wallet-balance').innerText()).toBe('7.50');

    // A reload shows what the server keeps: the stake, its lock and the automatic stake.
    await page.reload();
    await panel.getByTestId('stake-balance').waitFor();
    expect(await waitForText(panel.getByTestId('stake-balance'), '12.50 SSL')).toBe('12.50 SSL');
    expect(await panel.getByTestId('auto-stake-percent').inputValue()).toBe('50');
    expect(await panel.getByTestId('halving-requirement').innerText()).toContain(
      'Required so far: 0.00 SSL (met)',
    );

    expect(problems.pageErrors).toEqual([]);
    expect(problems.failedRequests.filter((line) => !line.includes('/unstake: HTTP 409'))).toEqual(
      [],
    );
    expect(await ledgerViolations(suite.stack.db.url)).toEqual([]);
  });
});
