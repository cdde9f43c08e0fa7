import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PORT_REGENERATION_INTERVAL_S } from '@scn/proto';
import { insertAgentServer, repositoryDatabase } from '../../test/support/server-rows';
import { CLIENT_SET_CHANNEL, ClientSetsRepository } from '../client-sets/client-sets.repository';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { TransactionRunner } from '../database/transaction-runner';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { PLAN_PORT_RANGE } from './inbound-plan';
import { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';

const t = repositoryDatabase();
let now = new Date('2026-11-25T03:00:00Z');

function service() {
  const clientSets = new ClientSetsService(new ClientSetsRepository(t.dataSource));
  return {
    nodes: new NodesService(
      new NodesRepository(t.dataSource),
      new TransactionRunner(t.dataSource),
      { now: () => now },
      { serverListUpdated: () => undefined } as unknown as RealtimeGateway,
    ),
    clientSets,
  };
}

/** An agent server enrolled with a plan (as EnrollmentService stores it); answers id and owner. */
async function enrolled(core: 'xray' | 'v2ray' | null, port = 24_000) {
  const id = await insertAgentServer(t.db);
  await t.db.query(
    `UPDATE servers SET core = $2, plan_port = $3, plan_security = $4, plan_revision = 1 WHERE id = $1`,
    [id, core, port, core === 'xray' ? 'reality' : 'tls'],
  );
  const [row] = await t.db.query<{ owner_uuid: string }>(
    'SELECT owner_uuid FROM servers WHERE id = $1',
    [id],
  );
  return { id, owner: row!.owner_uuid };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { code?: string; message?: string }) => error.code,
  );

describe('Node Configuration: transport and port', () => {
  it('should change the transport, bump the revision and push the plan with a new client-set version', async () => {
    const { nodes, clientSets } = service();
    const { id, owner } = await enrolled('xray');
    const before = await clientSets.clientSet(id);
    expect(before?.inboundPlan).toEqual({
      port: 24_000,
      security: 'reality',
      network: 'tcp',
      revision: '1',
    });
    const listener = new Client({ connectionString: t.db.url });
    await listener.connect();
    const notified: string[] = [];
    listener.on('notification', (message) => notified.push(message.payload ?? ''));
    await listener.query(`LISTEN ${CLIENT_SET_CHANNEL}`);
    try {
      const server = await nodes.changeTransport(owner, id, 'tls/grpc');
      expect(server).toMatchObject({ planSecurity: 'tls', planNetwork: 'grpc', planRevision: '2' });
      const after = await clientSets.clientSet(id);
      expect(after?.inboundPlan).toEqual({
        port: 24_000,
        security: 'tls',
        network: 'grpc',
        revision: '2',
      });
      expect(BigInt(after!.version)).toBe(BigInt(before!.version) + 1n);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(notified).toEqual([id]);
    } finally {
      await listener.end();
    }
  });

  it("should refuse a transport the node's core cannot serve, and another operator's server", async () => {
    const { nodes } = service();
    const { id, owner } = await enrolled('v2ray');
    expect(await failure(nodes.changeTransport(owner, id, 'reality/tcp'))).toBe(
      'transport_unsupported',
    );
    expect(await failure(nodes.changeTransport(owner, id, 'tls/grpc'))).toBe(
      'transport_unsupported',
    );
    expect(await failure(nodes.changeTransport(randomUUID(), id, 'tls/ws'))).toBe(
      'server_not_found',
    );
    expect(await failure(nodes.regeneratePort(randomUUID(), id))).toBe('server_not_found');
    const [row] = await t.db.query<{ plan_revision: string; plan_port: number }>(
      'SELECT plan_revision::text, plan_port FROM servers WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ plan_revision: '1', plan_port: 24_000 });
  });

  it('should regenerate to a different port of the range, persist it, and refuse again until the interval passed', async () => {
    const { nodes, clientSets } = service();
    const { id, owner } = await enrolled('v2ray');
    const first = await nodes.regeneratePort(owner, id);
    expect(first.planPort).not.toBe(24_000);
    expect(first.planPort).toBeGreaterThanOrEqual(PLAN_PORT_RANGE.min);
    expect(first.planPort).toBeLessThanOrEqual(PLAN_PORT_RANGE.max);
    expect(first.planRevision).toBe('2');
    expect((await clientSets.clientSet(id))?.inboundPlan.port).toBe(first.planPort);
    // Persistent: a read later (another replica, a restart) gives the same port.
    const [row] = await t.db.query<{ plan_port: number }>(
      'SELECT plan_port FROM servers WHERE id = $1',
      [id],
    );
    expect(row?.plan_port).toBe(first.planPort);

    now = new Date(now.getTime() + (PORT_REGENERATION_INTERVAL_S - 1) * 1000);
    const refused = await nodes.regeneratePort(owner, id).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'port_regeneration_too_soon',
      message: 'The port was regenerated recently: try again in 1 s',
    });
    now = new Date(now.getTime() + 1000);
    const second = await nodes.regeneratePort(owner, id);
    expect(second.planPort).not.toBe(first.planPort);
    expect(second.planRevision).toBe('3');
  });

  it('should let only one of two concurrent regenerations through', async () => {
    const { nodes } = service();
    const { id, owner } = await enrolled('xray');
    const outcomes = await Promise.all([
      failure(nodes.regeneratePort(owner, id)),
      failure(nodes.regeneratePort(owner, id)),
    ]);
    expect(outcomes.filter((o) => o === null)).toHaveLength(1);
    expect(outcomes.find((o) => o !== null)).toMatch(/^(port_regeneration_too_soon|plan_changed)$/);
    const [row] = await t.db.query<{ plan_revision: string }>(
      'SELECT plan_revision::text FROM servers WHERE id = $1',
      [id],
    );
    expect(row?.plan_revision).toBe('2');
  });

  it('should give a server enrolled before plans its reported port as its persistent one', async () => {
    const { nodes } = service();
    const id = await insertAgentServer(t.db);
    const [{ owner_uuid: owner } = { owner_uuid: '' }] = await t.db.query<{ owner_uuid: string }>(
      'SELECT owner_uuid FROM servers WHERE id = $1',
      [id],
    );
    const server = await nodes.changeTransport(owner, id, 'tls/ws');
    expect(server).toMatchObject({ planPort: 443, planSecurity: 'tls', planNetwork: 'ws' });
  });
});
