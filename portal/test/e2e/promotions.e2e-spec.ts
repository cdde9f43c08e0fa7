import { PROMOTION_MESSAGES } from '@scn/proto';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { depositThroughChain } from './support/deposits';
import { insertListedServer, insertOperator, marketCard } from './support/market';
import { collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Promotions in the browser, against the real control plane: an operator funded through a real
 * deposit promotes a server from the node dashboard's Promote Server modal and finds it first in
 * the Server Market with the Promoted badge; the modal's 'Add SSL to Balance' opens the node
 * wallet's deposit view.
 */

const suite = browserSuite({ solana: true });
const { openPage } = suite;

describe('promotions', () => {
  it('an operator promotes a server and sees it first in the market', async () => {
    const stack = suite.stack;
    const account = await registerAccount(stack, 'node');
    await depositThroughChain(stack, account, 2500);
    // Two better servers of someone else (lower ping), and the operator's own, slow one.
    const other = await insertOperator(stack);
    for (const name of ['Lisbon Fast', 'Porto Fast']) {
      await insertListedServer(stack, {
        ownerUuid: other,
        name,
        host: `${name.toLowerCase().replace(' ', '-')}.example`,
        port: 443,
        location: name.split(' ')[0]!,
      });
    }
    await insertListedServer(stack, {
      ownerUuid: account.uuid,
      name: 'Faro Promo',
      host: 'faro.example',
      port: 443,
      location: 'Faro',
    });
    await stack.db.query(`UPDATE servers SET ping_ms = 300 WHERE name = 'Faro Promo'`);

    const page = await openPage({ account });
    const problems = collectProblems(page);
    const cardNames = () =>
      page.getByTestId('market-server-card').getByTestId('market-card-name').allInnerTexts();

    // Before: the slow server is listed last, not promoted.
    await page.goto('/servers');
    await marketCard(page, 'Faro Promo').waitFor();
    expect((await cardNames()).at(-1)).toBe('Faro Promo');
    expect(
      await marketCard(page, 'Faro Promo').getByTestId('market-card-badges').textContent(),
    ).not.toContain('Promoted');

    // The node dashboard's server card: Promote.
    await page.goto('/node-dashboard');
    const card = page.getByTestId('server-card').filter({ hasText: 'Faro Promo' });
    await card.getByTestId('server-promote').click();
    const dialog = page.getByTestId('promote-dialog');
    expect(await waitForText(dialog.getByTestId('promote-balance'), '2,500.00 SSL')).toBe(
      '2,500.00 SSL',
    );
    expect(await dialog.getByTestId('promote-active').innerText()).toBe('Not promoted');
    // No plan chosen, then a plan above the balance: refused in the page, before any call.
    await dialog.getByTestId('promote-submit').click();
    expect(await dialog.getByTestId('promote-error').innerText()).toBe(
      PROMOTION_MESSAGES.selectPlan,
    );
    await dialog.getByTestId('promote-plan-premium').click();
    await dialog.getByTestId('promote-submit').click();
    expect(await dialog.getByTestId('promote-error').innerText()).toBe(
      PROMOTION_MESSAGES.insufficientSsl,
    );

    // Promote asks first, stating the cost, the balance after it and the cap; Cancel pays nothing.
    let promoteCalls = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/promote')) promoteCalls += 1;
    });
    await dialog.getByTestId('promote-plan-standard').click();
    await dialog.getByTestId('promote-submit').click();
    const confirm = page.getByTestId('promote-confirm-dialog');
    expect(await confirm.getByTestId('promote-confirm-text').innerText()).toBe(
      'The Standard plan lists this server first in the Server Market for 20 days. 2,000.00 SSL is taken from your node wallet now, leaving 500.00 SSL.',
    );
    expect(await confirm.getByTestId('promote-confirm-cap').innerText()).toBe(
      "With this plan the server's promotions will have cost 2,000.00 SSL of the 4,000 SSL cap.",
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(promoteCalls).toBe(0);
    expect(await dialog.getByTestId('promote-active').innerText()).toBe('Not promoted');
    expect(await dialog.getByTestId('promote-balance').innerText()).toBe('2,500.00 SSL');

    await dialog.getByTestId('promote-submit').click();
    await confirm.getByRole('button', { name: 'Pay 2,000.00 SSL' }).click();
    await dialog.getByTestId('promote-done').waitFor();
    expect(promoteCalls).toBe(1);
    expect(await dialog.getByTestId('promote-active').innerText()).toMatch(/^Promoted until /);
    expect(await dialog.getByTestId('promote-balance').innerText()).toBe('500.00 SSL');
    expect(await dialog.getByTestId('promote-spent').innerText()).toBe('2,000.00 SSL of 4,000 SSL');
    // 2000 paid: Premium (3000) would pass the 4000 cap, so it is disabled.
    expect(await dialog.getByTestId('promote-plan-premium').isDisabled()).toBe(true);
    expect(await dialog.getByTestId('promote-plan-standard').isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    // The node wallet followed (the dialog asks the app to reload it).
    expect(
      await waitForText(page.getByTestId('node-wallet').getByTestId('wallet-balance'), '500.00'),
    ).toBe('500.00');

    // The market: first, with the Promoted badge.
    await page.goto('/servers');
    await marketCard(page, 'Faro Promo').waitFor();
    expect((await cardNames())[0]).toBe('Faro Promo');
    expect(
      await marketCard(page, 'Faro Promo').getByTestId('market-card-badges').textContent(),
    ).toContain('Promoted');

    // The own card's Promote opens the same modal; Add SSL to Balance opens the deposit view.
    await marketCard(page, 'Faro Promo').getByTestId('market-promote').click();
    await dialog.getByTestId('promote-active').filter({ hasText: 'Promoted until' }).waitFor();
    await dialog.getByTestId('promote-add-balance').click();
    await page.waitForURL(`${stack.baseUrl}/node-dashboard`);
    await page.getByTestId('deposit-dialog').waitFor();

    expect(problems.pageErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
    expect(await ledgerViolations(stack.db.url)).toEqual([]);
  });
});
