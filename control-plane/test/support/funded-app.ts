import { WALLET_ROUTES, type WalletData } from '@scn/proto';
import type { registerAccount } from './accounts';
import { type FundingChain, startFundingChain } from './chain-deposits';
import { ledgerViolations } from './ledger';
import { startTestApp, type TestApp } from './test-app';

export interface FundedAppOptions {
  /** The suite's clock: the control plane's and the chain's block times follow it. */
  readonly now: () => Date;
  /** Settings beside the chain's (e.g. `LAUNCH_PERIOD_ENDS` for paid purchases). */
  readonly env?: Record<string, string>;
  /** Check the ledger's invariants after each test (`ledgerViolations`). */
  readonly checkLedgerAfterEach?: boolean;
}

/**
 * The end-to-end suites that move money: the built control plane on the suite's clock and the
 * local chain that funds its accounts through real deposits (`depositThroughChain`), started
 * before the file's tests and stopped after them. `use` gets both once started (it may also seed
 * the database), so a suite keeps its own `t` and `funding`.
 */
export function useFundedApp(
  options: FundedAppOptions,
  use: (app: TestApp, funding: FundingChain) => void | Promise<void>,
): void {
  let app: TestApp | undefined;
  let funding: FundingChain | undefined;
  beforeAll(async () => {
    funding = await startFundingChain({ now: () => options.now().getTime() });
    app = await startTestApp({ ...funding.env, ...options.env }, { clock: { now: options.now } });
    await use(app, funding);
  });
  afterAll(async () => {
    try {
      await app?.close();
    } finally {
      await funding?.stop();
    }
  });
  if (options.checkLedgerAfterEach) {
    afterEach(async () => {
      expect(await ledgerViolations(app!.db.url)).toEqual([]);
    });
  }
}

export type Account = Awaited<ReturnType<typeof registerAccount>>;

/** `who`'s node wallet as the API answers it (the owner's session). */
export async function nodeWallet(t: TestApp, who: Account): Promise<WalletData> {
  const res = await t.http().get(WALLET_ROUTES.nodeWallet(who.uuid)).set('Cookie', who.cookie);
  return res.body.data as WalletData;
}

/** A POST as `who`, with an `Idempotency-Key` when one is given. */
export function postAs(t: TestApp, who: Account, path: string, body: unknown, key?: string) {
  const req = t.http().post(path).set('Cookie', who.cookie);
  if (key !== undefined) req.set('Idempotency-Key', key);
  return req.send(body as object);
}
