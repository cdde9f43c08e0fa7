import * as grpc from '@grpc/grpc-js';
import {
  type AgentServiceClient,
  type EnrollRequest,
  SERVER_SETTINGS_MESSAGES,
  type NodeServerDetails,
} from '@scn/proto';
import type { Socket } from 'socket.io-client';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { ClientSetsService } from '../../src/client-sets/client-sets.service';
import { registerAccount } from '../support/accounts';
import { agentClient, enroll, nodeMetadata, report, statusOf } from '../support/agent-client';
import { watchServerList } from '../support/realtime';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Node Configuration (docs/product/screens.md#dashboards-and-information-pages): where a server is (country, location) comes from
 * `scn-agent enroll --country --location` over gRPC, and its owner reads and edits the server's
 * settings over HTTP; other accounts get 403 (their uuid) or 404 (not their server).
 */

let t: TestApp;
let client: AgentServiceClient;
let socket: Socket;
const events: Array<{ reason: string }> = [];

beforeAll(async () => {
  t = await startTestApp();
  client = agentClient(t.app.get(AgentGrpcServer).port);
  socket = await watchServerList(t, events);
});
afterAll(async () => {
  socket.close();
  client.close();
  await t.close();
});

const hardware = {
  os: 'Debian GNU/Linux 12 (bookworm)',
  osRelease: '6.1.0-18-amd64',
  arch: 'x64',
  cpuCores: 2,
  cpuModel: 'AMD EPYC 7B13',
  cpuGhz: 2.45,
  ramBytes: String(2 * 1024 ** 3),
  diskBytes: String(40 * 1024 ** 3),
};

type Operator = Awaited<ReturnType<typeof registerAccount>>;

async function tokenFor(operator: Operator): Promise<string> {
  const res = await t
    .http()
    .post('/api/nodes/enrollment-tokens')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ tier: 'tier2' })
    .expect(201);
  return res.body.token as string;
}

function enrollment(token: string, place: Partial<EnrollRequest> = {}): EnrollRequest {
  return { enrollmentToken: token, tier: 'TIER_2', agentVersion: '0.1.0', hardware, ...place };
}

async function enrolledServer(place: Partial<EnrollRequest> = {}) {
  const operator = await registerAccount(t, { userType: 'node' });
  const node = await enroll(client, enrollment(await tokenFor(operator), place));
  return { operator, node };
}

async function placeOf(serverId: string) {
  const [row] = await t.db.query<{ name: string; country: string | null; location: string | null }>(
    'SELECT name, country, location FROM servers WHERE id = $1',
    [serverId],
  );
  return row;
}

function details(operator: Operator, serverId: string, uuid = operator.uuid) {
  return t
    .http()
    .get(`/nodes/server/${uuid}/${serverId}`)
    .set('Authorization', `Bearer ${operator.token}`);
}

function patch(operator: Operator, serverId: string, body: unknown, uuid = operator.uuid) {
  return t
    .http()
    .patch(`/nodes/server/${uuid}/${serverId}`)
    .set('Authorization', `Bearer ${operator.token}`)
    .send(body as object);
}

async function until(predicate: () => boolean) {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`no event; got ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('enrollment with a place (scn-agent enroll --country --location)', () => {
  it('should store the upper-cased country and the location on the new server', async () => {
    const { node } = await enrolledServer({ country: 'de', location: ' Frankfurt, FSN1 ' });
    expect(await placeOf(node.nodeId)).toMatchObject({
      country: 'DE',
      location: 'Frankfurt, FSN1',
    });
  });

  it('should store no place when the agent sends none (an older agent)', async () => {
    const { node } = await enrolledServer();
    expect(await placeOf(node.nodeId)).toMatchObject({ country: null, location: null });
  });

  it('should refuse a bad country or location with INVALID_ARGUMENT, spending nothing', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const token = await tokenFor(operator);
    const failure = (place: Partial<EnrollRequest>) =>
      enroll(client, enrollment(token, place)).then(
        () => null,
        (error: grpc.ServiceError) => ({ code: error.code, details: error.details }),
      );
    expect(await failure({ country: 'Germany' })).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: `country: ${SERVER_SETTINGS_MESSAGES.countryInvalid}`,
    });
    expect(await failure({ location: 'x'.repeat(101) })).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: `location: ${SERVER_SETTINGS_MESSAGES.locationTooLong}`,
    });
    expect(
      await t.db.query('SELECT id FROM servers WHERE owner_uuid = $1', [operator.uuid]),
    ).toEqual([]);
    // The token is still good.
    expect(await statusOf(enroll(client, enrollment(token, { country: 'NL' })))).toBe('ok');
  });
});

describe('GET nodes/server/{uuid}/{serverId} (Node Configuration)', () => {
  it('should show the owner the server with tier capacity, agent, core, inbound, hardware and client-set versions', async () => {
    const { operator, node } = await enrolledServer({ country: 'FI', location: 'Helsinki' });
    const before = await details(operator, node.nodeId).expect(200);
    // Before the first report there is no inbound yet.
    expect(before.body.server).toMatchObject({ inbound: null, host: null, coreState: null });

    await report(client, nodeMetadata(node.nodeId, node.nodeSecret), {
      agentVersion: '0.1.1',
      hardware,
      uptimeSeconds: '7200',
      proxyCore: {
        state: 'PROXY_CORE_STATE_RUNNING',
        name: 'xray',
        version: '1.8.24',
        restartCount: 0,
      },
      activeClients: 0,
      clientCountFailed: false,
      clientTraffic: [],
      pingMs: 9,
      publicHost: 'fi1.example.net',
      publicPort: 443,
      inbound: {
        security: 'reality',
        sni: 'www.example.com',
        fp: 'chrome',
        pbk: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
        sid: '6ba85179e30d4fc2',
        flow: 'xtls-rprx-vision',
        network: 'tcp',
      },
      appliedClientSetVersion: '0',
    });
    await t.app
      .get(ClientSetsService)
      .setAllowedClients(node.nodeId, [
        '11111111-1111-4111-8111-111111111111',
        '22222222-2222-4222-8222-222222222222',
      ]);

    const res = await details(operator, node.nodeId).expect(200);
    const server = res.body.server as NodeServerDetails;
    expect(server).toMatchObject({
      id: node.nodeId,
      source: 'agent',
      tier: 'tier2',
      maxClients: 25,
      agentVersion: '0.1.1',
      coreState: 'running',
      host: 'fi1.example.net',
      port: 443,
      country: 'FI',
      location: 'Helsinki',
      inbound: {
        security: 'reality',
        sni: 'www.example.com',
        fp: 'chrome',
        pbk: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
        sid: '6ba85179e30d4fc2',
        flow: 'xtls-rprx-vision',
        type: 'tcp',
      },
      hardware: {
        os: 'Debian GNU/Linux 12 (bookworm)',
        arch: 'x64',
        cpuCores: 2,
        cpuModel: 'AMD EPYC 7B13',
        cpuGhz: 2.45,
        ramBytes: 2 * 1024 ** 3,
        diskBytes: 40 * 1024 ** 3,
      },
      allowedClients: 2,
      clientSetVersion: '1',
      appliedClientSetVersion: '0',
    });
    expect(new Date(server.created).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The node's secret never leaves the control plane.
    expect(JSON.stringify(res.body)).not.toContain(node.nodeSecret.split('.')[1]);
  });

  it("should answer 403 for another account's uuid and 404 for a server that is not theirs", async () => {
    const { operator, node } = await enrolledServer();
    const other = await registerAccount(t, { userType: 'node' });
    await details(other, node.nodeId, operator.uuid).expect(403);
    expect((await details(other, node.nodeId).expect(404)).body).toEqual({
      success: false,
      message: 'Server not found',
      code: 'nodes.server_not_found',
    });
    await details(operator, 'not-a-uuid').expect(404);
    // 36 characters of hex digits and dashes that are no UUID: not found, not a database error.
    await t
      .http()
      .delete(`/nodes/server/${operator.uuid}/${'-'.repeat(36)}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(404);
    await t.http().get(`/nodes/server/${operator.uuid}/${node.nodeId}`).expect(401);
  });
});

describe('PATCH nodes/server/{uuid}/{serverId} (Node Configuration)', () => {
  it('should save name, country and location, tell the market, and return the new settings', async () => {
    const { operator, node } = await enrolledServer({ country: 'DE', location: 'Frankfurt' });
    const seen = events.length;
    const res = await patch(operator, node.nodeId, {
      name: '  Helsinki 1 ',
      country: 'fi',
      location: 'Helsinki, Hetzner HEL1',
    }).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      message: SERVER_SETTINGS_MESSAGES.updated,
      server: {
        id: node.nodeId,
        name: 'Helsinki 1',
        country: 'FI',
        location: 'Helsinki, Hetzner HEL1',
        tier: 'tier2',
        maxClients: 25,
      },
    });
    expect(await placeOf(node.nodeId)).toEqual({
      name: 'Helsinki 1',
      country: 'FI',
      location: 'Helsinki, Hetzner HEL1',
    });
    await until(() => events.slice(seen).some((e) => e.reason === 'updated'));

    // Absent fields stay; null (or an empty location) clears.
    await patch(operator, node.nodeId, { location: '' }).expect(200);
    expect(await placeOf(node.nodeId)).toEqual({
      name: 'Helsinki 1',
      country: 'FI',
      location: null,
    });
    await patch(operator, node.nodeId, { country: null }).expect(200);
    expect(await placeOf(node.nodeId)).toEqual({
      name: 'Helsinki 1',
      country: null,
      location: null,
    });

    const list = await t
      .http()
      .get(`/nodes/servers/${operator.uuid}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    expect(list.body.servers[0]).toMatchObject({
      name: 'Helsinki 1',
      country: null,
      location: null,
    });
  });

  it('should refuse bad input with 400 and the field’s message, changing nothing', async () => {
    const { operator, node } = await enrolledServer({ country: 'DE', location: 'Frankfurt' });
    const before = await placeOf(node.nodeId);
    const cases: Array<[unknown, string]> = [
      [{}, SERVER_SETTINGS_MESSAGES.nothingToUpdate],
      [{ name: '  ' }, SERVER_SETTINGS_MESSAGES.nameRequired],
      [{ name: 'n'.repeat(101) }, SERVER_SETTINGS_MESSAGES.nameTooLong],
      [{ country: 'DEU' }, SERVER_SETTINGS_MESSAGES.countryInvalid],
      [{ country: 'XK' }, SERVER_SETTINGS_MESSAGES.countryInvalid],
      [{ location: 'l'.repeat(101) }, SERVER_SETTINGS_MESSAGES.locationTooLong],
      [{ location: 'two\nlines' }, SERVER_SETTINGS_MESSAGES.locationInvalid],
      // A valid field beside a bad one: nothing is half-written.
      [{ name: 'Renamed', country: 'Germany' }, SERVER_SETTINGS_MESSAGES.countryInvalid],
      [{ name: 'Renamed', reliability: 100 }, 'Unknown field: reliability'],
    ];
    for (const [body, message] of cases) {
      const res = await patch(operator, node.nodeId, body).expect(400);
      expect({ body, response: res.body }).toMatchObject({
        body,
        response: { success: false, message, code: 'common.invalid' },
      });
    }
    expect(await placeOf(node.nodeId)).toEqual(before);
  });

  it("should answer 403 for another account's uuid and 404 for a server that is not theirs", async () => {
    const { operator, node } = await enrolledServer({ country: 'DE', location: 'Frankfurt' });
    const other = await registerAccount(t, { userType: 'node' });
    const before = await placeOf(node.nodeId);
    expect(
      (await patch(other, node.nodeId, { name: 'Mine now' }, operator.uuid).expect(403)).body
        .success,
    ).toBe(false);
    expect((await patch(other, node.nodeId, { name: 'Mine now' }).expect(404)).body).toEqual({
      success: false,
      message: 'Server not found',
      code: 'nodes.server_not_found',
    });
    await patch(operator, '00000000-0000-4000-8000-000000000000', { name: 'Ghost' }).expect(404);
    await patch(operator, 'not-a-uuid', { name: 'Ghost' }).expect(404);
    await t
      .http()
      .patch(`/nodes/server/${operator.uuid}/${node.nodeId}`)
      .send({ name: 'Anonymous' })
      .expect(401);
    expect(await placeOf(node.nodeId)).toEqual(before);
  });
});
