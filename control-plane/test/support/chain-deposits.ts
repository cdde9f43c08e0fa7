import { type Devchain, type DevchainOptions, startDevchain } from '@scn/devchain';
import {
  DEPOSIT_ROUTES,
  type DepositRequest,
  type SolanaConfig,
  type VerifyDepositResponse,
  lamportsForSsl,
  lamportsToSol,
} from '@scn/proto';
import type { TestApp } from './test-app';

/**
 * End-to-end suites fund accounts the way users do, through a real deposit on the
 * local chain (@scn/devchain), never by writing the ledger. The SQL helper of `ledger.ts` is for
 * unit and database specs only; `src/deposits/e2e-funding.spec.ts` keeps it out of these suites.
 */
export interface FundingChain {
  chain: Devchain;
  /** The control plane's settings for this chain (spread into startTestApp's env). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A local chain with fast slots, trusted at `confirmed` (one slot, 50 ms). A suite that moves
 * the control plane's clock passes the same clock as `now`, so block times agree with it. A
 * suite that pays withdrawals passes `treasuryKeyFile` (created if missing): the deposit address
 * is then that keypair's, whose file the control plane signs payouts with.
 */
export async function startFundingChain(
  options: Pick<DevchainOptions, 'now' | 'treasuryKeyFile'> = {},
): Promise<FundingChain> {
  const chain = await startDevchain({ slotMs: 50, ...options });
  return {
    chain,
    env: {
      SOLANA_RPC_URL: chain.url,
      SOLANA_DEPOSIT_ADDRESS: chain.depositAddress,
      SOLANA_CLUSTER: 'localnet',
      SOLANA_COMMITMENT: 'confirmed',
      SOLANA_DEMO_WALLET_URL: chain.demoWalletUrl,
    },
    stop: () => chain.stop(),
  };
}

/** A control plane's answer as the deposit helper reads it. */
interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** How the deposit helper calls a control plane, signed in as the depositor. */
type Caller = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Answer>;

/**
 * Gives `who` (by its session cookie) `ssl` whole SSL through a real deposit: a deposit request
 * for just enough SOL at the server's quote, paid by the chain's demo wallet, then verified. The
 * credit lands in the account's own wallet (client or node, by its type). Answers the signature.
 * The smallest deposit is MIN_DEPOSIT_SOL (0.001 SOL): 6 SSL at the default 5,143 SSL per SOL.
 */
export function depositThroughChain(
  t: TestApp,
  funding: FundingChain,
  who: { cookie: string; uuid: string },
  ssl: number | bigint,
): Promise<string> {
  const call: Caller = async (method, path, body) => {
    const request =
      method === 'GET'
        ? t.http().get(path)
        : t
            .http()
            .post(path)
            .send(body as object);
    const answer = await request.set('Cookie', who.cookie);
    return { status: answer.status, body: answer.body as unknown, text: answer.text };
  };
  return deposit(call, funding, who.uuid, ssl);
}

/** The same, to a control plane running as its own process at `baseUrl`, with a bearer token. */
export function depositThroughChainAt(
  baseUrl: string,
  funding: FundingChain,
  who: { token: string; uuid: string },
  ssl: number | bigint,
): Promise<string> {
  const call: Caller = async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${who.token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the text says what it is
    }
    return { status: response.status, body: parsed, text };
  };
  return deposit(call, funding, who.uuid, ssl);
}

async function deposit(
  call: Caller,
  funding: FundingChain,
  uuid: string,
  ssl: number | bigint,
): Promise<string> {
  const whole = BigInt(ssl);
  if (whole <= 0n || (typeof ssl === 'number' && !Number.isInteger(ssl)))
    throw new Error(`deposits credit whole SSL: ${ssl}`);
  const configAnswer = await call('GET', DEPOSIT_ROUTES.apiConfig);
  if (configAnswer.status !== 200)
    throw new Error(`deposit config answered ${configAnswer.status}`);
  const config = configAnswer.body as SolanaConfig;
  const solAmount = lamportsToSol(lamportsForSsl(whole, config.conversionRate));
  const userAddress = funding.chain.demoWalletAddress;
  const created = await call('POST', DEPOSIT_ROUTES.requests, { solAmount, userAddress });
  if (created.status !== 201)
    throw new Error(`deposit request answered ${created.status}: ${created.text}`);
  const request = (created.body as { request: DepositRequest }).request;
  if (request.sslCreditMicro !== String(whole * 1_000_000n))
    throw new Error(`the quote credits ${request.sslCreditMicro} micro-SSL, not ${ssl} SSL`);
  const paid = await fetch(`${funding.chain.demoWalletUrl}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: request.transferUrl }),
  });
  if (!paid.ok) throw new Error(`the demo wallet answered ${paid.status}: ${await paid.text()}`);
  const { signature } = (await paid.json()) as { signature: string };
  for (const deadline = Date.now() + 15_000; ;) {
    const answer = await call('POST', DEPOSIT_ROUTES.verify, {
      userId: uuid,
      userAddress,
      expectedAmount: solAmount,
      requestId: request.id,
      signature,
    });
    const body = answer.body as VerifyDepositResponse;
    if (answer.status === 200 && body.verified) return signature;
    if (Date.now() > deadline)
      throw new Error(`deposit ${request.id} not credited within 15 s: ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
