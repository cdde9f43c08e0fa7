import { execFileSync } from 'node:child_process';
import * as grpc from '@grpc/grpc-js';
import {
  AGENT_METADATA,
  decodeSubscriptionContent,
  type AgentServiceClient,
  marketServersResponseSchema,
  type ProbeTasksResponse__Output,
  serverReachabilityResponseSchema,
  subscriptionCreationResponseSchema,
} from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { registerAccount } from '../support/accounts';
import { agentClient, statusOf } from '../support/agent-client';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { describeNeeding } from '../support/requirements';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Reachability through the real calls (docs/reachability.md): a vantage point enrolls and
 * reports over gRPC from a TEST-NET address the GeoIP override places in Iran (the control
 * plane's gRPC listens on that address, put on loopback, so the call's peer is it), and
 * visitors ask from addresses the override places in Iran or Germany (X-Forwarded-For from the
 * trusted loopback proxy). Then the market, the feed and a lying reporter.
 */
const PROBE_ADDRESS = '203.0.113.251';
const IRAN_VISITOR = '198.51.100.61';
const GERMAN_VISITOR = '198.51.100.62';
const OVERRIDES = [
  `${PROBE_ADDRESS}/32=IR:44244:Irancell`,
  `${IRAN_VISITOR}/32=IR:44244:Irancell`,
  `${GERMAN_VISITOR}/32=DE:3320:Deutsche Telekom`,
].join(',');

describeNeeding(['root'], 'reachability (a TEST-NET address on loopback)')(
  'reachability from vantage points and clients',
  () => {
    let t: TestApp;
    let grpcClient: AgentServiceClient;
    let blockedId: string;
    let workingId: string;
    let probe: { id: string; secret: string };

    const call = <T>(method: string, request: unknown, metadata = new grpc.Metadata()) =>
      new Promise<T>((resolve, reject) => {
        const fn = (
          grpcClient as unknown as Record<
            string,
            (r: unknown, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, v: T) => void) => void
          >
        )[method]!.bind(grpcClient);
        fn(request, metadata, (error: grpc.ServiceError | null, response: T) =>
          error ? reject(error) : resolve(response),
        );
      });
    /** Subscriptions are free in the launch period (the suite runs inside one). */
    const fundedClient = () => registerAccount(t, { userType: 'client' });
    const probeMetadata = () => {
      const metadata = new grpc.Metadata();
      metadata.set(AGENT_METADATA.probeId, probe.id);
      metadata.set(AGENT_METADATA.authorization, `Bearer ${probe.secret}`);
      return metadata;
    };

    beforeAll(async () => {
      execFileSync('ip', ['addr', 'replace', `${PROBE_ADDRESS}/32`, 'dev', 'lo']);
      t = await startTestApp({
        GRPC_HOST: PROBE_ADDRESS,
        TRUST_PROXY: '127.0.0.1',
        GEOIP_TEST_OVERRIDES: OVERRIDES,
        LAUNCH_PERIOD_ENDS: '2099-12-31',
      });
      grpcClient = agentClient(t.app.get(AgentGrpcServer).port, PROBE_ADDRESS);
      const operator = await insertAccount(t.db, { userType: 'node' });
      const ids = await insertServers(
        t.db,
        [
          { ownerUuid: operator, name: 'Blocked in Iran', host: '203.0.113.10', port: 443 },
          { ownerUuid: operator, name: 'Works in Iran', host: '203.0.113.11', port: 443 },
        ],
        new Date(),
      );
      [blockedId, workingId] = [ids[0]!, ids[1]!];
    }, 60_000);
    afterAll(async () => {
      grpcClient?.close();
      await t?.close();
      execFileSync('ip', ['addr', 'del', `${PROBE_ADDRESS}/32`, 'dev', 'lo']);
    });

    it('should enroll a vantage point once and place it by its address, not its word', async () => {
      const volunteer = await registerAccount(t, { userType: 'client' });
      const { body } = await t
        .http()
        .post(`/api/vantage-points/${volunteer.uuid}/enrollment-tokens`)
        .set('Cookie', volunteer.cookie)
        .send({ name: 'Tehran MCI' })
        .expect(201);
      expect(body.command).toContain(`--token ${body.token}`);
      const enrolled = await call<{
        probeId: string;
        probeSecret: string;
        country: string;
        asn: number;
      }>('EnrollProbe', { enrollmentToken: body.token, agentVersion: '0.1.0', name: '' });
      expect(enrolled).toMatchObject({ country: 'IR', asn: 44244 });
      probe = { id: enrolled.probeId, secret: enrolled.probeSecret };
      expect(
        await statusOf(
          call('EnrollProbe', { enrollmentToken: body.token, agentVersion: '0.1.0', name: '' }),
        ),
      ).toBe(grpc.status.UNAUTHENTICATED);
      const list = await t
        .http()
        .get(`/api/vantage-points/${volunteer.uuid}`)
        .set('Cookie', volunteer.cookie)
        .expect(200);
      expect(list.body.probes).toEqual([
        expect.objectContaining({ id: probe.id, name: 'Tehran MCI', country: 'IR', asn: 44244 }),
      ]);
    });

    it('should hand out endpoints with the probe UUID, never a client one, and refuse bad credentials', async () => {
      const tasks = await call<ProbeTasksResponse__Output>(
        'ProbeTasks',
        { agentVersion: '0.1.0' },
        probeMetadata(),
      );
      const ids = tasks.endpoints.map((e) => e.serverId).sort();
      expect(ids).toEqual([blockedId, workingId].sort());
      const [row] = await t.db.query<{ probe_uuid: string }>(
        `SELECT probe_uuid FROM servers WHERE id = $1`,
        [blockedId],
      );
      expect(tasks.endpoints.find((e) => e.serverId === blockedId)?.probeUuid).toBe(
        row?.probe_uuid,
      );
      expect(tasks).toMatchObject({ country: 'IR', asn: 44244 });
      const wrong = new grpc.Metadata();
      wrong.set(AGENT_METADATA.probeId, probe.id);
      wrong.set(AGENT_METADATA.authorization, `Bearer ${probe.id}.wrong`);
      expect(await statusOf(call('ProbeTasks', { agentVersion: '' }, wrong))).toBe(
        grpc.status.UNAUTHENTICATED,
      );
      expect(
        await statusOf(
          call(
            'ReportProbe',
            { agentVersion: '', results: [{ serverId: blockedId, planRevision: 'x' }] },
            probeMetadata(),
          ),
        ),
      ).toBe(grpc.status.INVALID_ARGUMENT);
    });

    const result = (serverId: string, errorClass: string) => ({
      serverId,
      planRevision: '0',
      tcpOk: errorClass === 'ok',
      tcpMs: 20,
      handshakeOk: errorClass === 'ok',
      vlessOk: errorClass === 'ok',
      totalMs: 120,
      errorClass,
    });
    const market = async (visitor: string, query = '') => {
      const response = await t
        .http()
        .get(`/data/servers${query}`)
        .set('X-Forwarded-For', visitor)
        .expect(200);
      return marketServersResponseSchema.parse(response.body);
    };

    it('should show a block in Iran to Iranian visitors only, and filter by it', async () => {
      const report = await call<{ accepted: number }>(
        'ReportProbe',
        { agentVersion: '0.1.0', results: [result(blockedId, 'timeout'), result(workingId, 'ok')] },
        probeMetadata(),
      );
      expect(report.accepted).toBe(2);
      const rows = serverReachabilityResponseSchema.parse(
        (await t.http().get(`/data/servers/${blockedId}/reachability`).expect(200)).body,
      ).rows;
      expect(rows).toEqual([
        expect.objectContaining({
          country: 'IR',
          asn: 44244,
          state: 'blocked',
          probes: 1,
          score: 0,
        }),
      ]);
      expect(rows[0]!.blockedSince).not.toBeNull();

      const iran = await market(IRAN_VISITOR);
      expect(iran.network).toEqual({ country: 'IR', asn: 44244, asnName: 'Irancell' });
      const stateIn = (page: typeof iran, id: string) =>
        page.servers.find((s) => s.id === id)?.reachability;
      expect(stateIn(iran, blockedId)).toBe('blocked');
      expect(stateIn(iran, workingId)).toBe('works');
      // The working server ranks above the blocked one (the order's reachability penalty).
      expect(iran.servers.map((s) => s.id)).toEqual([workingId, blockedId]);
      const germany = await market(GERMAN_VISITOR);
      expect(stateIn(germany, blockedId)).toBe('unknown');
      const filtered = await market(IRAN_VISITOR, '?reachable=works');
      expect(filtered.servers.map((s) => s.id)).toEqual([workingId]);
      expect(filtered.total).toBe(1);
      expect((await market(GERMAN_VISITOR, '?reachable=works')).servers).toEqual([]);
      await t.http().get('/data/servers?reachable=maybe').expect(400);
    });

    it('should leave the blocked server out of an Iranian feed and keep it in a German one', async () => {
      const client = await fundedClient();
      const created = subscriptionCreationResponseSchema.parse(
        (await buy(t, client, [blockedId, workingId]).expect(200)).body,
      );
      const path = new URL(created.subscriptionUrl).pathname;
      const links = async (visitor: string) => {
        const response = await t.http().get(path).set('X-Forwarded-For', visitor).expect(200);
        return decodeSubscriptionContent(response.text) ?? [];
      };
      const fromIran = await links(IRAN_VISITOR);
      expect(fromIran).toHaveLength(1);
      expect(fromIran[0]).toContain('203.0.113.11');
      const fromGermany = await links(GERMAN_VISITOR);
      expect(fromGermany).toHaveLength(2);
      const page = await t
        .http()
        .get(`${path}?format=html&lang=en`)
        .set('X-Forwarded-For', IRAN_VISITOR)
        .expect(200);
      expect(page.text).toContain('Blocked on your network');
      expect(page.text).toContain('Blocked in Iran');
      const [seen] = await t.db.query<{ client_country: string; client_asn: number }>(
        `SELECT client_country, client_asn FROM subscriptions WHERE id = $1`,
        [created.subscription.id],
      );
      // The last fetch was from Iran (the page): where the client is.
      expect(seen).toEqual({ client_country: 'IR', client_asn: 44244 });
    });

    it('should not let a lying client hide a working server, and distrust them', async () => {
      const liar = await fundedClient();
      await buy(t, liar, [workingId]).expect(200);
      const report = () =>
        t
          .http()
          .post(`/api/clients/reachability/${liar.uuid}`)
          .set('Cookie', liar.cookie)
          .set('X-Forwarded-For', IRAN_VISITOR)
          .send({ serverId: workingId, works: false, consent: true });
      for (let i = 0; i < 5; i += 1) {
        const { body } = await report().expect(200);
        expect(body.network).toMatchObject({ country: 'IR', asn: 44244 });
      }
      const rows = serverReachabilityResponseSchema.parse(
        (await t.http().get(`/data/servers/${workingId}/reachability`).expect(200)).body,
      ).rows;
      expect(rows).toEqual([expect.objectContaining({ state: 'works', probes: 1, observers: 1 })]);
      const [record] = await t.db.query<{ agreements: number; disagreements: number }>(
        `SELECT agreements, disagreements FROM reachability_reporters WHERE account_uuid = $1`,
        [liar.uuid],
      );
      expect(record).toEqual({ agreements: 0, disagreements: 5 });
      // Consent is required, and only one's own servers.
      await t
        .http()
        .post(`/api/clients/reachability/${liar.uuid}`)
        .set('Cookie', liar.cookie)
        .send({ serverId: workingId, works: false })
        .expect(400);
      await t
        .http()
        .post(`/api/clients/reachability/${liar.uuid}`)
        .set('Cookie', liar.cookie)
        .set('X-Forwarded-For', IRAN_VISITOR)
        .send({ serverId: blockedId, works: false, consent: true })
        .expect(403);
    });

    it('should need three trusted accounts to mark a server blocked where no vantage point is', async () => {
      const reportFrom = async () => {
        const client = await fundedClient();
        await buy(t, client, [blockedId]).expect(200);
        await t
          .http()
          .post(`/api/clients/reachability/${client.uuid}`)
          .set('Cookie', client.cookie)
          .set('X-Forwarded-For', GERMAN_VISITOR)
          .send({ serverId: blockedId, works: false, consent: true })
          .expect(200);
      };
      const german = async () =>
        serverReachabilityResponseSchema
          .parse((await t.http().get(`/data/servers/${blockedId}/reachability`).expect(200)).body)
          .rows.find((r) => r.country === 'DE');
      await reportFrom();
      await reportFrom();
      expect((await german())?.state).toBe('unknown');
      await reportFrom();
      expect(await german()).toMatchObject({ state: 'blocked', observers: 3, probes: 0 });
    });

    it('should regenerate the port of an operator who allows it, once per interval', async () => {
      const operator = await registerAccount(t, { userType: 'node' });
      const [serverId] = await insertServers(
        t.db,
        [{ ownerUuid: operator.uuid, name: 'Regenerates', host: '203.0.113.12', port: 443 }],
        new Date(),
      );
      const setting = (intervalS: unknown) =>
        t
          .http()
          .put(`/nodes/server/${operator.uuid}/${serverId}/auto-regenerate`)
          .set('Authorization', `Bearer ${operator.token}`)
          .send({ intervalS });
      await setting(123).expect(400);
      await setting(3600).expect(200);
      const plan = async () =>
        (
          await t.db.query<{ plan_port: number | null; plan_revision: string }>(
            'SELECT plan_port, plan_revision FROM servers WHERE id = $1',
            [serverId],
          )
        )[0]!;
      const before = await plan();
      const blocked = (revision: string) =>
        call<{ accepted: number }>(
          'ReportProbe',
          {
            agentVersion: '0.1.0',
            results: [{ ...result(serverId!, 'reset'), planRevision: revision }],
          },
          probeMetadata(),
        );
      expect((await blocked(before.plan_revision)).accepted).toBe(1);
      const after = await plan();
      expect(Number(after.plan_revision)).toBe(Number(before.plan_revision) + 1);
      expect(after.plan_port).not.toBeNull();
      expect(after.plan_port).not.toBe(443);
      // The old port's estimate means nothing now, and a late result of it is not stored.
      const view = await t
        .http()
        .get(`/nodes/reachability/${operator.uuid}`)
        .set('Authorization', `Bearer ${operator.token}`)
        .expect(200);
      expect(view.body.servers).toEqual([
        expect.objectContaining({ serverId, autoRegenerateS: 3600, rows: [] }),
      ]);
      expect(view.body.servers[0].portRegeneratedAt).not.toBeNull();
      await blocked(before.plan_revision);
      expect(await plan()).toEqual(after);
      // Blocked again on the new port within the hour: no second regeneration.
      await blocked(after.plan_revision);
      expect(await plan()).toEqual(after);
      const rows = serverReachabilityResponseSchema.parse(
        (await t.http().get(`/data/servers/${serverId}/reachability`).expect(200)).body,
      ).rows;
      expect(rows).toEqual([expect.objectContaining({ state: 'blocked', country: 'IR' })]);
    });
  },
);
