import path from 'node:path';
import type request from 'supertest';

/**
 * The control plane's test kit, loaded by path at run time: a static import would pull the
 * control plane's decorated sources into node-agent's type check (test/tsconfig.json), which is
 * not configured for them. These are the few shapes the agent's end-to-end specs use.
 */
export interface TestApp {
  app: { get<T>(token: unknown): T };
  http(): ReturnType<typeof request>;
  /** The test's own database. */
  db: { query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> };
  close(): Promise<void>;
}

/** A local Solana chain (@scn/devchain) for funding accounts through real deposits. */
export interface FundingChain {
  /** The control plane's settings for this chain: spread into startTestApp's env. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface ControlPlaneKit {
  /** `env` overrides the control plane's environment (e.g. GRPC_TLS_CERT, GRPC_TLS_KEY). */
  startTestApp(env?: Record<string, string>): Promise<TestApp>;
  registerAccount(
    t: TestApp,
    options: { userType: 'node' },
  ): Promise<{ uuid: string; token: string }>;
  /**
   * Starts a local chain; a suite that moves the control plane's clock passes the same clock as
   * `now` (ms since the epoch), so the chain's block times agree with it.
   */
  startFundingChain(options?: { now?: () => number }): Promise<FundingChain>;
  /**
   * Gives `who` `ssl` whole SSL (at least 6, the 0.001 SOL minimum) through a real
   * deposit request paid by the chain's demo wallet, then verified; answers the signature.
   */
  depositThroughChain(
    t: TestApp,
    funding: FundingChain,
    who: { cookie: string; uuid: string },
    ssl: number | bigint,
  ): Promise<string>;
  AgentGrpcServer: unknown;
  ClientSetsService: unknown;
  /** The control plane's DNS for node names (its `port` with SCN_DNS_LISTEN=...:0). */
  NodeDnsServer: unknown;
}

export interface ClientSetsServiceShape {
  setAllowedClients(serverId: string, clientUuids: readonly string[]): Promise<string>;
}

/** Set by the control plane's jest global setup: without it there is no PostgreSQL. */
export const hasDatabase = Boolean(process.env.SCN_TEST_ADMIN_URL);

const CONTROL_PLANE = path.join(__dirname, '../../../control-plane');

export async function loadControlPlaneKit(): Promise<ControlPlaneKit> {
  const load = (file: string) =>
    import(path.join(CONTROL_PLANE, file)) as Promise<Record<string, unknown>>;
  const [testApp, accounts, chainDeposits, grpc, clientSets, nodeDns] = await Promise.all([
    load('test/support/test-app'),
    load('test/support/accounts'),
    load('test/support/chain-deposits'),
    load('src/grpc/agent-grpc.server'),
    load('src/client-sets/client-sets.service'),
    load('src/node-dns/node-dns.server'),
  ]);
  return {
    ...testApp,
    ...accounts,
    ...chainDeposits,
    ...grpc,
    ...clientSets,
    ...nodeDns,
  } as unknown as ControlPlaneKit;
}

/**
 * A node's allowed UUIDs without its server's probe UUID (docs/reachability.md): every set the
 * control plane sends admits the vantage points' UUID beside the clients'.
 */
export async function clientsOf(
  t: TestApp,
  serverId: string,
  allowed: readonly string[],
): Promise<string[]> {
  const [row] = await t.db.query<{ probe_uuid: string }>(
    'SELECT probe_uuid FROM servers WHERE id = $1',
    [serverId],
  );
  return allowed.filter((uuid) => uuid !== row?.probe_uuid);
}
