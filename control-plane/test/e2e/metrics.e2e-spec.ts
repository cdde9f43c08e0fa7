import * as grpc from '@grpc/grpc-js';
import { ModuleRef } from '@nestjs/core';
import type { Socket } from 'socket.io-client';
import type { AgentServiceClient } from '@scn/proto';
import request from 'supertest';
import { JOB_STATS } from '../../src/jobs/job-stats';
import { MetricsListener } from '../../src/metrics/metrics-listener';
import { registerAccount } from '../support/accounts';
import { agentReport, nodeMetadata, report, statusOf, watch } from '../support/agent-client';
import {
  type AppBehindDbProxy,
  startAppBehindDbProxy,
  until,
} from '../support/app-behind-db-proxy';
import { enrolledNode } from '../support/enrolled-node';
import {
  alertRules,
  dashboardExpressions,
  type Exposition,
  exportedNames,
  find,
  metricNamesIn,
  parseExposition,
  total,
} from '../support/prometheus-text';
import type { TcpProxy } from '../support/tcp-proxy';
import type { TestApp } from '../support/test-app';

/**
 * /metrics (docs/architecture.md#metrics) on the built control plane: who may read it, and the
 * series after real traffic (REST, gRPC, socket.io, a database outage through a TCP proxy this
 * spec takes down); every metric docker/'s alerts and dashboard name is one it exports.
 */
const TOKEN = 'metrics-e2e-token-0123456789abcdef';

let env: AppBehindDbProxy;
let proxy: TcpProxy;
let t: TestApp;
let agent: AgentServiceClient;
let socket: Socket;

beforeAll(async () => {
  env = await startAppBehindDbProxy({ METRICS_TOKEN: TOKEN, METRICS_PORT: '0' });
  ({ proxy, t, agent, socket } = env);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
}, 60_000);

afterAll(() => env.close());

async function scrape(): Promise<Exposition> {
  const response = await t
    .http()
    .get('/metrics')
    .set('Authorization', `Bearer ${TOKEN}`)
    .expect(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(response.text);
}

describe('GET /metrics', () => {
  it('should answer only the bearer of METRICS_TOKEN on the API port', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${client.token}`]) {
      const call = t.http().get('/metrics');
      const res = await (authorization ? call.set('Authorization', authorization) : call);
      expect([authorization, res.status, res.body.code]).toEqual([
        authorization,
        401,
        'common.unauthenticated',
      ]);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    const res = await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.text).toContain('# TYPE scn_http_requests_total counter');
  });

  it('should serve METRICS_PORT on loopback with the token, and nothing else there', async () => {
    const port = t.app.get(MetricsListener).port;
    expect(port).toEqual(expect.any(Number));
    const own = request(`http://127.0.0.1:${port}`);
    await own.get('/metrics').expect(401);
    const res = await own.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    await own.get('/api/economics/live').set('Authorization', `Bearer ${TOKEN}`).expect(404);
  });

  it('should count requests by route pattern, never by path', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    await t.http().get(`/wallet/client/${client.uuid}`).set('Cookie', client.cookie).expect(200);
    await t.http().get(`/wallet/client/${client.uuid}`).expect(401);
    await t.http().get('/api/no-such-route').expect(404);
    const metrics = await scrape();
    const route = '/wallet/client/:uuid';
    expect(total(metrics, 'scn_http_requests_total', { route, code: '200' })).toBeGreaterThan(0);
    expect(
      total(metrics, 'scn_http_requests_total', { route, status_class: '4xx', code: '401' }),
    ).toBeGreaterThan(0);
    expect(
      total(metrics, 'scn_http_requests_total', { route: 'unmatched', code: '404' }),
    ).toBeGreaterThan(0);
    expect(
      total(metrics, 'scn_http_request_duration_seconds_count', { route, method: 'GET' }),
    ).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(metrics.samples)).not.toContain(client.uuid);
  });

  it('should show the pool, LISTEN, sockets, ledger, backlog and event loop', async () => {
    const metrics = await scrape();
    expect(total(metrics, 'scn_db_pool_connections')).toBeGreaterThanOrEqual(2); // two LISTEN
    expect(total(metrics, 'scn_db_pool_max_connections')).toBeGreaterThan(0);
    expect(total(metrics, 'scn_db_pool_acquire_seconds_count', { outcome: 'ok' })).toBeGreaterThan(
      0,
    );
    for (const channel of ['client_sets', 'realtime'])
      expect(total(metrics, 'scn_pg_listen_connected', { channel })).toBe(1);
    expect(total(metrics, 'scn_realtime_clients')).toBe(1);
    // Double entry: the kinds' totals sum to zero, and the genesis supply is there.
    const balances = find(metrics, 'scn_ledger_balance_ssl');
    expect(balances.map((s) => s.labels.kind)).toContain('supply');
    expect(Math.abs(balances.reduce((sum, s) => sum + s.value, 0))).toBeLessThan(1e-6);
    expect(total(metrics, 'scn_deposit_transfers_open', { status: 'confirming' })).toBe(0);
    expect(find(metrics, 'scn_deposit_transfers_oldest_seen_timestamp_seconds')).toEqual([]);
    expect(total(metrics, 'scn_withdrawals_open', { status: 'pending' })).toBe(0);
    expect(find(metrics, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });

  it("should count agents' reports by outcome and their open streams", async () => {
    const { metadata, id } = await enrolledNode(t, agent, 'tier1');
    await report(agent, metadata, agentReport(60));
    const wrong = nodeMetadata(id, 'not-the-secret');
    expect(await statusOf(report(agent, wrong, agentReport(60)))).toBe(grpc.status.UNAUTHENTICATED);
    const stream = watch(agent, metadata);
    await stream.waitFor(() => stream.sets.length === 1);
    const metrics = await scrape();
    expect(total(metrics, 'scn_agent_reports_total', { outcome: 'accepted' })).toBe(1);
    expect(
      total(metrics, 'scn_agent_reports_total', { outcome: 'rejected', reason: 'unauthenticated' }),
    ).toBe(1);
    expect(total(metrics, 'scn_agent_streams', { method: 'watch_clients' })).toBe(1);
    stream.cancel();
    await until('the stream closed', async () =>
      total(await scrape(), 'scn_agent_streams', { method: 'watch_clients' }) === 0
        ? true
        : undefined,
    );
  });

  it("should export the job scaffold's series exactly when it provides JOB_STATS", async () => {
    let provided = true;
    try {
      // Through a ModuleRef: the application's own get() ends the process on an unknown token.
      t.app.get(ModuleRef).get(JOB_STATS, { strict: false });
    } catch {
      provided = false;
    }
    const metrics = await scrape();
    const intervals = find(metrics, 'scn_job_interval_seconds');
    if (provided) expect(intervals.length).toBeGreaterThan(0);
    else expect(intervals).toEqual([]);
    expect(metrics.types.get('scn_job_last_success_timestamp_seconds')).toBe('gauge');
  });

  it('should count the 503s of an unavailable database, and keep answering', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    proxy.down();
    try {
      await until('a 503', async () => {
        const res = await t
          .http()
          .get(`/wallet/client/${client.uuid}`)
          .set('Cookie', client.cookie);
        return res.status === 503 ? res : undefined;
      });
      const during = await until('LISTEN seen down', async () => {
        const metrics = await scrape();
        return total(metrics, 'scn_pg_listen_connected') === 0 ? metrics : undefined;
      });
      expect(
        total(during, 'scn_http_unavailable_total', {
          route: '/wallet/client/:uuid',
          cause: 'database',
        }),
      ).toBeGreaterThan(0);
      expect(total(during, 'scn_http_requests_total', { code: '503' })).toBeGreaterThan(0);
    } finally {
      proxy.up();
    }
    await until('LISTEN back', async () =>
      total(await scrape(), 'scn_pg_listen_connected') === 2 ? true : undefined,
    );
  }, 90_000);

  it("should export every metric docker/'s alerts and dashboard use", async () => {
    const exported = exportedNames(await scrape());
    const used = [
      ...alertRules().flatMap((rule) =>
        metricNamesIn([rule.expr, ...Object.values(rule.annotations ?? {})].join('\n')).map(
          (name) => `${rule.alert}: ${name}`,
        ),
      ),
      ...dashboardExpressions().flatMap(({ panel, expr }) =>
        metricNamesIn(expr).map((name) => `${panel}: ${name}`),
      ),
    ];
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((entry) => !exported.has(entry.split(': ')[1]!))).toEqual([]);
  });
});
