import { Keypair } from '@solana/web3.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { registerAccount } from '../accounts';
import { depositThroughChain, type FundingChain } from '../chain-deposits';
import { insertServers } from '../market-fixtures';
import { buy } from '../subscriptions';
import type { TestApp } from '../test-app';
import type { Auth, Identity, IdentityValues } from './cases';
import type { Operation } from './openapi';

type Account = Awaited<ReturnType<typeof registerAccount>>;

interface OwnedSubscription {
  id: string;
  fileName: string;
  secret: string;
}

/**
 * What the fuzz requests act on: a client and an operator (each with a live session), a second
 * client and operator whose ids must be refused to the first ones, listed servers and a paid
 * subscription. Accepted requests may log out, delete or pause these: `repair` puts them back.
 */
export class FuzzFixtures {
  private tokens = new Map<'client' | 'operator', string>();

  private constructor(
    private readonly t: TestApp,
    readonly client: Account,
    readonly operator: Account,
    readonly otherClient: Account,
    readonly otherOperator: Account,
    private serverId: string,
    private readonly otherServerId: string,
    private subscription: OwnedSubscription,
    private readonly otherSubscription: OwnedSubscription,
  ) {
    this.tokens.set('client', client.token);
    this.tokens.set('operator', operator.token);
  }

  /** `funding` is the chain the app takes deposits on: the clients are funded through it. */
  static async create(t: TestApp, funding: FundingChain): Promise<FuzzFixtures> {
    const [client, operator, otherClient, otherOperator] = await Promise.all([
      registerAccount(t),
      registerAccount(t, { userType: 'node' }),
      registerAccount(t),
      registerAccount(t, { userType: 'node' }),
    ]);
    const [serverId, otherServerId] = (await insertServers(
      t.db,
      [
        { ownerUuid: operator.uuid, name: 'Fuzz node', tier: 'tier4', host: '127.0.0.1' },
        { ownerUuid: otherOperator.uuid, name: 'Other node', tier: 'tier4', host: '127.0.0.1' },
      ],
      new Date(),
    )) as [string, string];
    await depositThroughChain(t, funding, client, 1_000);
    await depositThroughChain(t, funding, otherClient, 100);
    const mine = await purchase(t, client, serverId);
    const theirs = await purchase(t, otherClient, otherServerId);
    return new FuzzFixtures(
      t,
      client,
      operator,
      otherClient,
      otherOperator,
      serverId,
      otherServerId,
      mine,
      theirs,
    );
  }

  /** The credentials of an identity's current session, as its request carries them. */
  credentials(identity: Identity, auth: Auth): Record<string, string> {
    if (identity === 'anonymous' || auth === 'none' || auth === 'raw') return {};
    const token = this.tokens.get(identity)!;
    return auth === 'cookie'
      ? { cookie: `scn_session=${token}` }
      : { authorization: `Bearer ${token}` };
  }

  /** The valid values of `operation`'s path, query and body for an identity. */
  valuesFor(identity: Identity, operation: Operation): IdentityValues {
    const own = identity === 'operator' ? this.operator : this.client;
    const other = identity === 'operator' ? this.otherOperator : this.otherClient;
    // `{id}` is a server on the market's and promotions' paths, a subscription on the clients'.
    const serverPath = /^\/(data|servers)\//.test(operation.path);
    return {
      identity,
      segments: {
        uuid: own.uuid,
        serverId: this.serverId,
        id: serverPath ? this.serverId : this.subscription.id,
        subscriptionId: this.subscription.id,
        fileName: this.subscription.fileName,
        secret: this.subscription.secret,
      },
      foreignSegments: {
        uuid: other.uuid,
        serverId: this.otherServerId,
        id: serverPath ? randomUUID() : this.otherSubscription.id,
        subscriptionId: this.otherSubscription.id,
        fileName: this.otherSubscription.fileName,
        secret: this.otherSubscription.secret,
      },
      body: {
        uuid: own.uuid,
        clientUUID: this.client.uuid,
        serverId: this.serverId,
        serverIds: [this.serverId],
        email: 'fuzz.nobody@example.com',
        password: 'correct horse battery',
        newPassword: 'correct horse battery',
        code: '123456',
        userType: identity === 'operator' ? 'node' : 'client',
        captchaToken: null,
        vlessString: `vless://${randomUUID()}@127.0.0.1:9?security=none&type=tcp#Fuzz`,
        name: 'Fuzz node',
        subject: 'Hello',
        message: 'Hello there',
        tier: 'tier2',
        country: ['DE'],
        newBillingCycle: 'hourly',
        // The Basic promotion plan at its price.
        days: 10,
        cost: 1000,
        // A withdrawal of the minimum (100 SSL) to a wallet's address.
        amount: '100',
        destinationAddress: Keypair.generate().publicKey.toBase58(),
        autoRenew: false,
        paymentId: null,
        isFreeSubscription: false,
        timestamp: new Date().toISOString(),
        ipAddress: '192.0.2.1',
      },
      query: {
        userType: identity === 'operator' ? 'node' : 'client',
        limit: '10',
        page: '1',
        search: 'node',
        country: 'DE',
        sort: 'ping',
        order: 'desc',
        before: '1',
      },
    };
  }

  /**
   * After an accepted request: new sessions for revoked ones, the subscription bought again if
   * it was deleted, resumed if paused, the server put back if deleted. Returns whether it wrote.
   */
  async repair(): Promise<boolean> {
    let wrote = false;
    for (const [identity, account] of [
      ['client', this.client],
      ['operator', this.operator],
    ] as const) {
      const token = this.tokens.get(identity)!;
      const [live] = await this.t.db.query(
        `SELECT 1 FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
        [createHash('sha256').update(token).digest('hex')],
      );
      if (live) continue;
      this.tokens.set(identity, await mintSession(this.t, account.uuid));
      wrote = true;
    }
    const [server] = await this.t.db.query('SELECT 1 FROM servers WHERE id = $1', [this.serverId]);
    let resubscribe = false;
    if (!server) {
      [this.serverId] = (await insertServers(
        this.t.db,
        [{ ownerUuid: this.operator.uuid, name: 'Fuzz node', tier: 'tier4', host: '127.0.0.1' }],
        new Date(),
      )) as [string];
      resubscribe = wrote = true;
    }
    const [subscription] = await this.t.db.query<{ status: string }>(
      `SELECT status FROM subscriptions WHERE id = $1`,
      [this.subscription.id],
    );
    if (resubscribe || subscription?.status !== 'active') {
      const sessionToken = this.tokens.get('client')!;
      this.subscription = await purchase(
        this.t,
        { ...this.client, cookie: `scn_session=${sessionToken}` },
        this.serverId,
      );
      wrote = true;
    }
    return wrote;
  }
}

async function purchase(
  t: TestApp,
  account: { uuid: string; cookie: string },
  serverId: string,
): Promise<OwnedSubscription> {
  const res = await buy(t, account, [serverId]);
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`fixture purchase failed: ${res.status} ${res.text.slice(0, 300)}`);
  const body = res.body as {
    subscriptionId: string;
    subscription: { rawFileUrl: string; subscriptionUrl: string };
  };
  return {
    id: body.subscriptionId,
    fileName: body.subscription.rawFileUrl.split('/').pop()!,
    secret: body.subscription.subscriptionUrl.split('/sub/').pop()!,
  };
}

/** A new session row for an account (as login writes it), without spending the login limits. */
async function mintSession(t: TestApp, accountUuid: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await t.db.query(
    `INSERT INTO sessions (id, token_hash, account_uuid, expires_at, ip_address, user_agent)
     VALUES ($1, $2, $3, now() + interval '1 day', '127.0.0.1', 'fuzz')`,
    [randomUUID(), createHash('sha256').update(token).digest('hex'), accountUuid],
  );
  return token;
}
