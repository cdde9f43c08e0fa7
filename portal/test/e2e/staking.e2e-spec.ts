import { STAKING_MESSAGES, STAKING_ROUTES, type StakingResponse } from '@scn/proto';
import type { Page } from 'playwright-core';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { depositThroughChain } from './support/deposits';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Staking settings on the node dashboard, against the real control plane: an
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

    // Stake asks first, stating the 30-day lock; Cancel sends nothing.
    let moves = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/stake$/.test(new URL(request.url()).pathname))
        moves += 1;
    });
    await panel.getByTestId('stake-amount').fill('12.5');
    await panel.getByTestId('stake-submit').click();
    const confirm = page.getByTestId('stake-confirm-dialog');
    expect(await confirm.getByTestId('stake-confirm-text').innerText()).toMatch(
      /^12\.50 SSL moves from your node wallet to your stake and is locked for 30 days, until about /,
    );
    expect(await confirm.innerText()).toContain(
      'You cannot unstake it or withdraw it before the 30 days have passed.',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(moves).toBe(0);
    expect(await panel.getByTestId('stake-balance').innerText()).toBe('0.00 SSL');
    expect(await panel.getByTestId('stake-amount').inputValue()).toBe('12.5');

    // Confirm stakes.
    await panel.getByTestId('stake-submit').click();
    await confirm.getByRole('button', { name: 'Stake 12.50 SSL' }).click();
    expect(await waitForText(panel.getByTestId('stake-success'), 'Staked 12.50 SSL')).toBe(
      'Staked 12.50 SSL',
    );
    expect(await waitForText(panel.getByTestId('stake-balance'), '12.50 SSL')).toBe('12.50 SSL');
    expect(await panel.getByTestId('stake-available').innerText()).toBe('7.50 SSL');
    // The node wallet follows at once (the panel asks the app to reload it).
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '7.50')).toBe('7.50');
    expect(moves).toBe(1);
    expect(await panel.getByTestId('stake-locks').innerText()).toContain('12.50 SSL');
    // 12.5 x 12% / 12 = 0.125, shown with two decimals cut toward zero (lib/money.ts).
    expect(await panel.getByTestId('stake-income').innerText()).toBe('0.12 SSL');

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

  it('shows the staking panel and its confirmation in Persian, right to left, with Persian digits', async () => {
    const account = await registerAccount(suite.stack, 'node');
    const page = await openPage({ account, locale: 'fa-IR' });
    const problems = collectProblems(page);
    await page.goto('/node-dashboard');
    const panel = page.getByTestId('staking-panel');
    await panel.getByTestId('stake-balance').waitFor();
    expect(
      await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
    ).toEqual(['fa', 'rtl']);
    expect(await panel.getByRole('heading', { level: 2 }).innerText()).toBe('استیکینگ');
    expect(await panel.locator('header p').innerText()).toBe(
      'سالانه ۱۲٪ از صندوق پاداش. هر استیک ۳۰ روز قفل می‌ماند.',
    );
    expect(await panel.getByTestId('stake-balance').innerText()).toBe('۰٫۰۰ SSL');
    expect(await panel.getByTestId('halving-requirement').innerText()).toContain(
      'استیک لازم تا امروز: ۰٫۰۰ SSL (تأمین شده).',
    );

    await panel.getByTestId('stake-amount').fill('5');
    await panel.getByTestId('stake-submit').click();
    const confirm = page.getByTestId('stake-confirm-dialog');
    expect(await confirm.getByTestId('stake-confirm-text').innerText()).toMatch(
      /^۵٫۰۰ SSL از کیف پول نود شما به استیک منتقل می‌شود و ۳۰ روز، تا حدود .+، قفل می‌ماند\.$/,
    );
    // The unlock day is in the Solar Hijri calendar, in Persian digits.
    expect(await confirm.getByTestId('stake-confirm-text').innerText()).toMatch(/[۰-۹]{4}/);
    expect(await confirm.getByTestId('stake-confirm-text').innerText()).not.toMatch(/[0-9]/);
    await confirm.getByRole('button', { name: 'استیک ۵٫۰۰ SSL' }).waitFor();
    await confirm.getByRole('button', { name: 'انصراف' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await panel.getByTestId('stake-balance').innerText()).toBe('۰٫۰۰ SSL');
    expect(problems.pageErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });
});
