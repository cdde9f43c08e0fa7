import {
  DEPOSIT_ROUTES,
  type DepositRequestResponse,
  lamportsForSsl,
  type SolanaConfig,
  lamportsToSol,
} from '@scn/proto';
import type { Account } from './portal';
import type { Stack } from './stack';

/**
 * Funds an account through a real deposit (the browser suites get their SSL the
 * way users do): a deposit request for just enough SOL to credit `ssl` whole SSL at the quote,
 * paid by the local chain's demo wallet, credited by the watcher. Needs `browserSuite({ solana:
 * true })`. Resolves when the request is credited.
 */
export async function depositThroughChain(
  stack: Stack,
  account: Account,
  ssl: number,
): Promise<void> {
  const chain = stack.chain;
  if (!chain) throw new Error('depositThroughChain needs browserSuite({ solana: true })');
  const auth = { Authorization: `Bearer ${account.token}` };
  const config = (await (
    await fetch(`${stack.baseUrl}${DEPOSIT_ROUTES.apiConfig}`)
  ).json()) as SolanaConfig;
  const lamports = lamportsForSsl(BigInt(ssl), config.conversionRate);
  const created = await fetch(`${stack.baseUrl}${DEPOSIT_ROUTES.requests}`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      solAmount: lamportsToSol(lamports),
      userAddress: chain.demoWalletAddress,
    }),
  });
  if (!created.ok) throw new Error(`deposit request answered ${created.status}`);
  const { request } = (await created.json()) as DepositRequestResponse;
  if (request.sslCreditMicro !== String(BigInt(ssl) * 1_000_000n)) {
    throw new Error(`the quote credits ${request.sslCreditMicro} micro-SSL, not ${ssl} SSL`);
  }
  const paid = await fetch(`${chain.demoWalletUrl}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: request.transferUrl }),
  });
  if (!paid.ok) throw new Error(`the demo wallet answered ${paid.status}: ${await paid.text()}`);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const current = await fetch(`${stack.baseUrl}${DEPOSIT_ROUTES.request(request.id)}`, {
      headers: auth,
    });
    const body = (await current.json()) as DepositRequestResponse;
    if (body.request?.status === 'credited') return;
    if (Date.now() > deadline) throw new Error(`deposit ${request.id} not credited within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
