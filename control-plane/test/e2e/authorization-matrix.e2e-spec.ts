import { randomUUID } from 'node:crypto';
import { AUTH_MESSAGES } from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The authorization matrix: who may call each operation of the served OpenAPI document.
 * `public` needs no session; `session` any signed-in account; `client` and `node` a session of
 * that account type only (docs/api.md: "the other account type's call or wallet: 403"); `metrics`
 * the METRICS_TOKEN bearer alone (a session is no credential there: 401). Every
 * operation the server serves must be in this table, so a new route is classified here before
 * it ships; the spec then calls each one as nobody, as the other account type (with its own
 * `{uuid}`), as the right type with another account's `{uuid}`, and as its owner.
 */
type Audience = 'public' | 'session' | 'client' | 'node' | 'metrics';

const AUDIENCE: Record<string, Audience> = {
  'POST /api/auth/generate-code': 'public',
  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/verify-session': 'session',
  'GET /api/auth/profile/{uuid}': 'session',
  'PUT /api/auth/profile/{uuid}/locale': 'session',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/reset-password': 'public',
  'POST /api/auth/terms/accept': 'session',
  'GET /api/terms/status': 'session',
  'POST /api/contact': 'public',
  'GET /solana/config': 'public',
  'GET /api/solana/config': 'public',
  'POST /api/solana/deposit-requests': 'session',
  'GET /api/solana/deposit-requests/{id}': 'session',
  'POST /api/solana/verify-deposit': 'session',
  'GET /api/solana/deposit-address': 'session',
  'GET /api/solana/deposit-address/transfers': 'session',
  'POST /api/solana/deposit-address/verify': 'session',
  'GET /checksums/client': 'public',
  'GET /checksums/server': 'public',
  'GET /api/economics/live': 'public',
  'POST /api/nodes/enrollment-tokens': 'node',
  'GET /install.sh': 'public',
  'GET /downloads/scn-agent.tgz': 'public',
  'GET /downloads/apps/{fileName}': 'public',
  'GET /healthz': 'public',
  'GET /health/live': 'public',
  'GET /health/ready': 'public',
  'GET /metrics': 'metrics',
  'POST /nodes/upload-server': 'node',
  'GET /data/servers': 'public',
  'GET /data/countries': 'public',
  'GET /data/stats': 'public',
  'GET /data/processing-servers': 'public',
  'POST /data/mark-server-processing': 'client',
  'GET /data/servers/{id}/health': 'public',
  'GET /admin-servers': 'session',
  'GET /nodes/servers/{uuid}': 'node',
  'GET /nodes/server/{uuid}/{serverId}': 'node',
  'PATCH /nodes/server/{uuid}/{serverId}': 'node',
  'PATCH /nodes/server/{uuid}/{serverId}/transport': 'node',
  'POST /nodes/server/{uuid}/{serverId}/regenerate-port': 'node',
  'DELETE /nodes/server/{uuid}/{serverId}': 'node',
  'GET /servers/{id}/promotion': 'node',
  'POST /servers/{id}/promote': 'node',
  'GET /api/nodes/{uuid}/servers/{serverId}/reliability': 'node',
  'GET /api/nodes/{uuid}/earnings': 'node',
  'GET /api/social/check-shares/{uuid}': 'session',
  'POST /api/social/record-share': 'session',
  'POST /wallet/add-social-reward': 'session',
  'GET /api/nodes/{uuid}/staking': 'node',
  'POST /api/nodes/{uuid}/stake': 'node',
  'POST /api/nodes/{uuid}/unstake': 'node',
  'PUT /api/nodes/{uuid}/staking/auto': 'node',
  'GET /sub/{secret}': 'public',
  'GET /api/clients/subscriptions/{uuid}/{subscriptionId}/traffic': 'client',
  'POST /api/clients/create-subscription': 'client',
  'POST /clients/create-subscription': 'client',
  'GET /api/clients/subscriptions/{uuid}': 'client',
  'GET /api/clients/paused-subscriptions/{uuid}': 'client',
  'POST /api/clients/subscription/{uuid}/{id}/pause': 'client',
  'POST /api/clients/subscription/{uuid}/{id}/activate': 'client',
  'POST /api/clients/subscription/{uuid}/{id}/change-type': 'client',
  'POST /api/clients/subscription/{uuid}/{id}/auto-renew': 'client',
  'DELETE /api/clients/subscription/{uuid}/{id}': 'client',
  'GET /api/clients/subscription/{uuid}/{id}/qr-codes': 'client',
  'POST /api/clients/subscription/{uuid}/{id}/rotate-url': 'client',
  'GET /api/clients/download-subscription/{uuid}/{fileName}': 'client',
  'GET /clients/download-subscription/{subscriptionId}/{fileName}': 'client',
  'GET /api/nodes/{uuid}/servers/{serverId}/traffic': 'node',
  'GET /wallet/client/{uuid}': 'client',
  'GET /wallet/node/{uuid}': 'node',
  'POST /wallet/create-client-wallet': 'client',
  'POST /wallet/create-node-wallet': 'node',
  'GET /wallet/settings': 'session',
  'POST /wallet/client/{uuid}/pay-subscription': 'client',
  'POST /api/wallet/node/{uuid}/reward': 'node',
  'POST /wallet/node/{uuid}/withdraw': 'node',
  'GET /wallet/node/{uuid}/withdrawals': 'node',
  'GET /api/reachability/here': 'public',
  'GET /data/servers/{id}/reachability': 'public',
  'POST /api/clients/reachability/{uuid}': 'client',
  'GET /nodes/reachability/{uuid}': 'node',
  'PUT /nodes/server/{uuid}/{serverId}/auto-regenerate': 'node',
  'POST /api/vantage-points/{uuid}/enrollment-tokens': 'session',
  'GET /api/vantage-points/{uuid}': 'session',
  'DELETE /api/vantage-points/{uuid}/{probeId}': 'session',
};

/** Refused for every caller, its owner included (docs/api.md says why). */
const ALWAYS_FORBIDDEN = new Set([
  'POST /api/wallet/node/{uuid}/reward', // rewards are server-side
  'POST /wallet/node/{uuid}/withdraw', // WITHDRAWALS_ENABLED is off here: suspended
]);

interface Caller {
  uuid: string;
  token: string;
}

let t: TestApp;
let operations: Array<{ key: string; method: string; path: string }>;
let client: Caller;
let node: Caller;
let otherClient: Caller;
let otherNode: Caller;
const METRICS_TOKEN = 'matrix-metrics-token-0123456789abcdef';
const metricsCaller: Caller = { uuid: '', token: METRICS_TOKEN };

beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN });
  const served = await t.http().get('/api/docs-json').expect(200);
  const paths = served.body.paths as Record<string, Record<string, unknown>>;
  operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      method,
      path,
    })),
  );
  [client, node, otherClient, otherNode] = await Promise.all([
    registerAccount(t, { userType: 'client' }),
    registerAccount(t, { userType: 'node' }),
    registerAccount(t, { userType: 'client' }),
    registerAccount(t, { userType: 'node' }),
  ]);
}, 60_000);
afterAll(() => t.close());

/** The path with `{uuid}` as `uuid` and every other parameter a fresh UUID (no such thing). */
function pathFor(path: string, uuid: string): string {
  return path
    .replace('{uuid}', uuid)
    .replace('{fileName}', `group_${randomUUID()}.txt`)
    .replace(/\{[^}]+\}/g, () => randomUUID());
}

function call(method: string, path: string, caller?: Caller) {
  const request = t.http()[method as 'get'](path);
  if (caller) request.set('Authorization', `Bearer ${caller.token}`);
  return method === 'get' || method === 'delete' ? request : request.send({});
}

describe('the authorization matrix', () => {
  it('should classify every operation the server serves, and no other', () => {
    expect(operations.map((op) => op.key).sort()).toEqual(Object.keys(AUDIENCE).sort());
  });

  it('should answer 401 without a session wherever one is needed', async () => {
    const answers: Array<[string, number]> = [];
    for (const op of operations) {
      if (AUDIENCE[op.key] === 'public') continue;
      const res = await call(op.method, pathFor(op.path, client.uuid));
      answers.push([op.key, res.status]);
    }
    expect(answers.filter(([, status]) => status !== 401)).toEqual([]);
  });

  it("should answer 403 to the other account type, with that account's own uuid", async () => {
    const answers: Array<[string, number]> = [];
    for (const op of operations) {
      const audience = AUDIENCE[op.key];
      if (audience !== 'client' && audience !== 'node') continue;
      const wrong = audience === 'client' ? node : client;
      const res = await call(op.method, pathFor(op.path, wrong.uuid), wrong);
      answers.push([op.key, res.status]);
    }
    expect(answers.length).toBeGreaterThan(30);
    expect(answers.filter(([, status]) => status !== 403)).toEqual([]);
  });

  it("should answer 403 to the right account type naming another account's uuid", async () => {
    const answers: Array<[string, number]> = [];
    for (const op of operations) {
      const audience = AUDIENCE[op.key];
      if (audience === 'public' || !op.path.includes('{uuid}')) continue;
      const [caller, other] = audience === 'node' ? [node, otherNode] : [client, otherClient];
      const res = await call(op.method, pathFor(op.path, other.uuid), caller);
      answers.push([op.key, res.status]);
    }
    expect(answers.filter(([, status]) => status !== 403)).toEqual([]);
  });

  it('should let the right account type through the check to its own resources', async () => {
    const answers: Array<[string, number]> = [];
    for (const op of operations) {
      const audience = AUDIENCE[op.key];
      if (audience === 'public' || ALWAYS_FORBIDDEN.has(op.key)) continue;
      const caller = audience === 'metrics' ? metricsCaller : audience === 'node' ? node : client;
      const res = await call(op.method, pathFor(op.path, caller.uuid), caller);
      answers.push([op.key, res.status]);
    }
    expect(answers.filter(([, status]) => status === 401 || status === 403)).toEqual([]);
  });

  it('should answer 401 to a session where the metrics token is needed', async () => {
    const answers: Array<[string, number]> = [];
    for (const op of operations) {
      if (AUDIENCE[op.key] !== 'metrics') continue;
      for (const caller of [client, node])
        answers.push([op.key, (await call(op.method, op.path, caller)).status]);
    }
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter(([, status]) => status !== 401)).toEqual([]);
  });

  it('should refuse a node its own subscription lists and a client its own server list', async () => {
    for (const path of [
      `/api/clients/subscriptions/${node.uuid}`,
      `/api/clients/paused-subscriptions/${node.uuid}`,
    ]) {
      const res = await call('get', path, node).expect(403);
      expect(res.body).toEqual({
        success: false,
        message: AUTH_MESSAGES.clientsOnly,
        code: 'auth.clients_only',
      });
    }
    const res = await call('get', `/nodes/servers/${client.uuid}`, client).expect(403);
    expect(res.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.nodesOnly,
      code: 'auth.nodes_only',
    });
  });
});
