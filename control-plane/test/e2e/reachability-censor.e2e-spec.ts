import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MarketServersResponse,
  NODES_ROUTES,
  type NodeServerDetails,
  REACHABILITY_ROUTES,
  type ServerReachabilityResponse,
  SUBSCRIPTION_ROUTES,
  type SubscriptionCreationResponse,
  type SubscriptionsResponse,
  type VantagePoint,
} from '@scn/proto';
import { registerAccount } from '../support/accounts';
import {
  CLIENT_HELLO_START,
  type CensoredWorld,
  type Country,
  killProcessesMentioning,
  loadNetnsKit,
  startCensoredWorld,
  tcpExchange,
  tlsHandshake,
} from '../support/censor-netns';
import { waitFor } from '../support/processes';
import {
  type AgentNode,
  getThroughSocks,
  startAgentNode,
  startProbe,
  startV2rayClient,
  type Supervised,
  vlessServersOf,
} from '../support/reachability-agents';
import {
  feedFrom,
  jsonFrom,
  startWorldControlPlane,
  timed,
  v2rayConfigFrom,
  type WorldControlPlane,
} from '../support/reachability-world';
import { describeNeeding } from '../support/requirements';
import { buy } from '../support/subscriptions';

/**
 * Reachability end to end (docs/reachability.md) in a censored world on this machine
 * (test/support/censor-netns.ts): country A (placed in IR, AS44244 by the GeoIP test override)
 * with a censor, country B (DE, AS3320) without, three real nodes (the built agent with
 * /usr/bin/v2ray, VLESS + TLS) on TEST-NET-3 addresses of this machine, a vantage point in each
 * country, and the control plane they all reach through their veths. The censor in A drops node
 * 1's port and resets node 3's connections after their TLS ClientHello. The suite measures, and
 * prints as `[figure]` lines: how long until the vantage point in A finds the block, until the
 * market and feeds from A leave node 1 out (B's keep it), until a subscriber of node 1 alone is
 * given node 2 (and a v2ray client in A built from the refreshed feed reaches a test host in A
 * through it), and, after the operator turns automatic port regeneration on, until node 1 is on
 * a new port the censor does not block and back in A's feed.
 */
const PLACES = {
  a: { country: 'IR', asn: 44244, asnName: 'IranCell' },
  b: { country: 'DE', asn: 3320, asnName: 'DTAG' },
};
const TEST_HOST_PORT = 8080;
const BODY = 'the test host inside the censored country';
/** The bounds the figures are held to (docs/reachability.md states them). */
const DETECTION_LIMIT_MS = 30_000;
const FEED_LIMIT_MS = 30_000;
const REPLACEMENT_LIMIT_MS = 30_000;
const REGENERATION_LIMIT_MS = 60_000;

const describeLive = describeNeeding(
  ['root', 'netns', 'nft', 'v2ray'],
  'reachability in a censored world of network namespaces',
);

describeLive(
  'reachability: a censor in country A, nodes with real v2ray, vantage points, feeds',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'scn-reach-'));
    let world: CensoredWorld;
    let a: Country;
    let b: Country;
    let cp: WorldControlPlane;
    let testHost: ChildProcess | undefined;
    const processes: Supervised[] = [];
    let operator: Awaited<ReturnType<typeof registerAccount>>;
    const nodes: AgentNode[] = [];
    /** Subscribes node 1 and node 2; subscriber Y node 1 alone. */
    let x: {
      client: Awaited<ReturnType<typeof registerAccount>>;
      sub: SubscriptionCreationResponse;
    };
    let y: {
      client: Awaited<ReturnType<typeof registerAccount>>;
      sub: SubscriptionCreationResponse;
    };
    let blockedAt = 0;
    let testHostUrl = '';

    const t = () => cp.t;
    const n = (i: 1 | 2 | 3) => nodes[i - 1]!;
    const details = async (node: AgentNode): Promise<NodeServerDetails> =>
      (
        await t()
          .http()
          .get(NODES_ROUTES.server(operator.uuid, node.nodeId))
          .set('Authorization', `Bearer ${operator.token}`)
          .expect(200)
      ).body.server as NodeServerDetails;
    const rowsOf = async (node: AgentNode) =>
      (
        (await t().http().get(REACHABILITY_ROUTES.server(node.nodeId)).expect(200))
          .body as ServerReachabilityResponse
      ).rows;
    const stateIn = (rows: ServerReachabilityResponse['rows'], country: Country) =>
      rows.find((r) => r.country === country.place.country && r.asn === country.place.asn)?.state;
    const endpoint = (node: AgentNode, port = node.port) => `${node.host}:${port}`;
    const allowsClient = (node: AgentNode, uuid: string) =>
      waitFor(
        `node ${node.host} to let ${uuid} in`,
        async () => {
          const config = JSON.parse(readFileSync(node.configPath, 'utf8')) as {
            allowedClients?: string[];
          };
          return config.allowedClients?.includes(uuid) ? true : null;
        },
        15_000,
      );
    const subscribe = async (serverIds: string[]) => {
      const client = await registerAccount(t(), { userType: 'client' });
      const response = await buy(t(), client, serverIds, { billingCycle: 'monthly' }).expect(200);
      return { client, sub: response.body as SubscriptionCreationResponse };
    };
    /** A v2ray client in A from a subscription's v2ray feed: the servers it uses, and a GET. */
    const clientInA = async (subscriptionUrl: string) => {
      const config = await v2rayConfigFrom(a, subscriptionUrl);
      const client = startV2rayClient(a, config, dir, a.address);
      processes.push(client.client);
      const page = await waitFor(
        'a page through the v2ray client in A',
        async () => {
          const got = await getThroughSocks(a, client.socksPort, testHostUrl);
          return got.status === 200 ? got.body : null;
        },
        20_000,
        500,
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${client.client.output()}`);
      });
      await client.client.stop();
      return { servers: vlessServersOf(config), page };
    };

    beforeAll(async () => {
      world = await startCensoredWorld(`rc${process.pid % 1000}`, PLACES, 4);
      a = world.countries.a!;
      b = world.countries.b!;
      const kit = await loadNetnsKit();
      testHost = await kit.startNamespacedHttpServer(a.netns, TEST_HOST_PORT, BODY);
      testHostUrl = `http://${a.address}:${TEST_HOST_PORT}/`;
      cp = await startWorldControlPlane(world, testHostUrl);
      operator = await registerAccount(t(), { userType: 'node' });
      const started = await Promise.all(
        [1, 2, 3].map(async (i) => {
          const { body } = await t()
            .http()
            .post('/api/nodes/enrollment-tokens')
            .set('Authorization', `Bearer ${operator.token}`)
            .send({ tier: 'tier1' })
            .expect(201);
          return startAgentNode({
            grpcTarget: cp.grpcTarget,
            token: body.token as string,
            host: world.services[i]!,
            dir: join(dir, `node-${i}`),
            allowTestDestinations: world.countryCidrs,
            country: 'NL',
            location: `Amsterdam ${i}`,
          });
        }),
      );
      nodes.push(...started);
      processes.push(...started.map((node) => node.agent));
      for (const node of nodes) {
        await waitFor(
          `node ${node.host} serving its plan`,
          async () => {
            if (node.agent.child.exitCode !== null)
              throw new Error(`agent exited: ${node.agent.output()}`);
            const server = await details(node);
            return !server.inboundPending && server.host === node.host ? server : null;
          },
          30_000,
        ).catch((error: Error) => {
          throw new Error(`${error.message}\n${node.agent.output()}`);
        });
        node.port = (await details(node)).port!;
      }
      x = await subscribe([n(1).nodeId, n(2).nodeId]);
      y = await subscribe([n(1).nodeId]);
    }, 120_000);

    afterAll(async () => {
      // Each step whatever the one before did: the world must go even when a process hangs.
      const steps: Array<[string, () => unknown]> = [
        ['processes', () => Promise.all(processes.map((child) => child.stop()))],
        ['orphans', () => killProcessesMentioning(dir)],
        ['test host', () => testHost?.kill('SIGKILL')],
        ['control plane', () => cp?.close()],
        ['world', () => world?.close()],
        ['folder', () => rmSync(dir, { recursive: true, force: true })],
      ];
      for (const [what, step] of steps) {
        const started = Date.now();
        await Promise.resolve()
          .then(step)
          .catch((error: Error) => console.error(`[cleanup] ${what}: ${error.message}`));
        console.log(`[cleanup] ${what} ${Date.now() - started} ms`);
      }
    }, 60_000);

    it('should reset a connection only once a TLS ClientHello is sent, and drop by address and port (the censor itself)', async () => {
      const received: Buffer[] = [];
      const sockets = new Set<Socket>();
      const echo: Server = createServer((socket) => {
        sockets.add(socket);
        socket.on('data', (data) => {
          received.push(data);
          socket.write(data);
        });
        socket.on('error', () => undefined);
      });
      const host = world.services[0]!;
      await new Promise<void>((resolve) => echo.listen(0, host, resolve));
      const port = (echo.address() as { port: number }).port;
      const hello = Buffer.from('hello');
      try {
        await a.censor([{ host, port, mode: 'reset-after-client-hello' }]);
        const censored = await tcpExchange(a, host, port, [hello, CLIENT_HELLO_START]);
        expect(censored).toEqual({
          connected: true,
          replies: [hello.toString('hex')],
          end: 'reset',
        });
        expect(Buffer.concat(received)).toEqual(hello);
        expect(await a.censorCounts()).toEqual([1]);
        // B has no censor: both payloads come back.
        const free = await tcpExchange(b, host, port, [hello, CLIENT_HELLO_START]);
        expect(free.replies).toEqual([hello.toString('hex'), CLIENT_HELLO_START.toString('hex')]);

        await a.censor([{ host, port, mode: 'drop' }]);
        expect(await tcpExchange(a, host, port, [hello], 1500)).toMatchObject({
          connected: false,
          end: 'timeout',
        });
      } finally {
        await a.censor([]);
        // The connection the censor reset never saw the reset on this side: still open here.
        for (const socket of sockets) socket.destroy();
        echo.close();
      }
    }, 30_000);

    it('should serve both nodes to A and B before any censor, and carry a v2ray client in A through node 1 to a test host in A', async () => {
      for (const country of [a, b]) {
        const links = await feedFrom(country, x.sub.subscriptionUrl);
        expect(links.map((l) => `${l.host}:${l.port}`).sort()).toEqual(
          [endpoint(n(1)), endpoint(n(2))].sort(),
        );
        for (const node of nodes)
          expect(await tlsHandshake(country, node.host, node.port)).toBe('ok');
      }
      // Y's feed, fetched from A: where Y uses the subscription from.
      expect((await feedFrom(a, y.sub.subscriptionUrl)).map((l) => l.host)).toEqual([n(1).host]);
      await allowsClient(n(1), y.sub.subscription.uuid);
      const through = await clientInA(y.sub.subscriptionUrl);
      expect(through).toEqual({ servers: [endpoint(n(1))], page: BODY });
      const market = await jsonFrom<MarketServersResponse>(a, `${cp.base}/data/servers?limit=50`);
      expect(market.servers.map((s) => s.id)).toEqual(
        expect.arrayContaining(nodes.map((node) => node.nodeId)),
      );
    }, 60_000);

    it('should place a vantage point in each country by its address, enrolled with a token of its owner', async () => {
      const here = await jsonFrom<{ network: { country: string; asn: number } }>(
        a,
        `${cp.base}${REACHABILITY_ROUTES.here}`,
      );
      expect(here.network).toMatchObject({ country: 'IR', asn: 44244 });
      for (const country of [a, b]) {
        const name = `Probe in ${country.place.country}`;
        const issued = await t()
          .http()
          .post(REACHABILITY_ROUTES.probeTokens(operator.uuid))
          .set('Authorization', `Bearer ${operator.token}`)
          .send({ name })
          .expect(201);
        const { token, command } = issued.body as { token: string; command: string };
        expect(command).toContain(token);
        processes.push(
          await startProbe({
            country,
            grpcTarget: cp.grpcTarget,
            token,
            name,
            dir: join(dir, `probe-${country.key}`),
          }),
        );
      }
      const probes = await waitFor(
        'both vantage points seen',
        async () => {
          const listed = await t()
            .http()
            .get(REACHABILITY_ROUTES.probes(operator.uuid))
            .set('Authorization', `Bearer ${operator.token}`)
            .expect(200);
          const found = (listed.body as { probes: VantagePoint[] }).probes;
          return found.length === 2 && found.every((p) => p.lastSeenAt) ? found : null;
        },
        20_000,
      );
      expect(probes.map((p) => [p.country, p.asn]).sort()).toEqual([
        ['DE', 3320],
        ['IR', 44244],
      ]);
    }, 60_000);

    it('should block node 1 (drop) and node 3 (reset after the ClientHello) in A only', async () => {
      blockedAt = Date.now();
      await a.censor([
        { host: n(1).host, port: n(1).port, mode: 'drop' },
        { host: n(3).host, port: n(3).port, mode: 'reset-after-client-hello' },
      ]);
      expect(await tlsHandshake(a, n(1).host, n(1).port)).toBe('timeout');
      expect(await tlsHandshake(a, n(3).host, n(3).port)).toBe('reset');
      expect(await tlsHandshake(a, n(2).host, n(2).port)).toBe('ok');
      for (const node of nodes) expect(await tlsHandshake(b, node.host, node.port)).toBe('ok');
      expect((await a.censorCounts()).every((count) => count > 0)).toBe(true);
    }, 30_000);

    it(
      'scenario 1: the vantage point in A finds node 1 blocked there, working in B',
      async () => {
        const { seconds } = await timed(
          'block detected (node 1 blocked for IR/AS44244, works for DE/AS3320)',
          blockedAt,
          async () => {
            const rows = await rowsOf(n(1));
            return stateIn(rows, a) === 'blocked' && stateIn(rows, b) === 'works' ? rows : null;
          },
          DETECTION_LIMIT_MS,
        );
        expect(seconds * 1000).toBeLessThan(DETECTION_LIMIT_MS);
        expect(stateIn(await rowsOf(n(2)), a)).toBe('works');
      },
      DETECTION_LIMIT_MS + 10_000,
    );

    it(
      "scenario 2: A's market and feed leave node 1 out, node 2 first; B's feed keeps node 1",
      async () => {
        const market = await jsonFrom<MarketServersResponse>(a, `${cp.base}/data/servers?limit=50`);
        expect(market.network).toMatchObject({ country: 'IR', asn: 44244 });
        const reach = new Map(market.servers.map((s) => [s.id, s.reachability]));
        expect([reach.get(n(1).nodeId), reach.get(n(2).nodeId)]).toEqual(['blocked', 'works']);
        const works = await jsonFrom<MarketServersResponse>(
          a,
          `${cp.base}/data/servers?limit=50&reachable=works`,
        );
        const ids = works.servers.map((s) => s.id);
        expect(ids).toContain(n(2).nodeId);
        expect(ids).not.toContain(n(1).nodeId);

        const { value: links } = await timed(
          "A's feed without node 1 (since the block)",
          blockedAt,
          async () => {
            const got = await feedFrom(a, x.sub.subscriptionUrl);
            return got.some((l) => l.host === n(1).host) ? null : got;
          },
          FEED_LIMIT_MS,
        );
        expect(`${links[0]?.host}:${links[0]?.port}`).toBe(endpoint(n(2)));
        const fromB = await feedFrom(b, x.sub.subscriptionUrl);
        expect(fromB.map((l) => l.host)).toContain(n(1).host);
      },
      FEED_LIMIT_MS + 20_000,
    );

    it(
      'scenario 3: a subscriber of node 1 alone, using it from A, is given node 2; their v2ray in A reaches the test host through it',
      async () => {
        await timed(
          "Y's feed from A carries node 2 (since the block)",
          blockedAt,
          async () => {
            const got = await feedFrom(a, y.sub.subscriptionUrl);
            return got.some((l) => l.host === n(2).host) ? got : null;
          },
          REPLACEMENT_LIMIT_MS,
        );
        const listed = await t()
          .http()
          .get(SUBSCRIPTION_ROUTES.active(y.client.uuid))
          .set('Cookie', y.client.cookie)
          .expect(200);
        const subscription = (listed.body as SubscriptionsResponse).subscriptions.find(
          (s) => s.id === y.sub.subscriptionId,
        );
        expect(subscription?.serverIds).toContain(n(2).nodeId);
        await allowsClient(n(2), y.sub.subscription.uuid);
        const through = await clientInA(y.sub.subscriptionUrl);
        expect(through).toEqual({ servers: [endpoint(n(2))], page: BODY });
      },
      REPLACEMENT_LIMIT_MS + 40_000,
    );

    it(
      "scenario 5: the vantage point in A tells the censor's reset (node 3) from its drop (node 1)",
      async () => {
        const observed = await waitFor(
          "A's observations of node 1 and node 3",
          async () => {
            const rows = await t().db.query<{
              server_id: string;
              works: boolean;
              error_class: string;
            }>(
              `SELECT server_id, works, error_class FROM reachability_observations
            WHERE country = $1 AND asn = $2 AND observer_kind = 'probe' AND server_id = ANY($3)`,
              [a.place.country, a.place.asn, [n(1).nodeId, n(3).nodeId]],
            );
            return rows.length === 2 ? rows : null;
          },
          DETECTION_LIMIT_MS,
        );
        const classOf = (node: AgentNode) => observed.find((r) => r.server_id === node.nodeId);
        console.log(
          `[figure] error class in A: node 1 (drop) ${classOf(n(1))?.error_class}, node 3 (reset after ClientHello) ${classOf(n(3))?.error_class}`,
        );
        expect(classOf(n(1))).toMatchObject({ works: false, error_class: 'timeout' });
        expect(classOf(n(3))).toMatchObject({ works: false, error_class: 'reset' });
        // B's vantage point reaches node 3 (a node without clients: the probe UUID came in the
        // first set it was sent, at version 0).
        expect(stateIn(await rowsOf(n(3)), b)).toBe('works');
      },
      DETECTION_LIMIT_MS + 10_000,
    );

    it(
      'scenario 4: automatic port regeneration moves node 1 off the blocked port; A finds it working and its feed carries it again',
      async () => {
        const oldPort = n(1).port;
        const setAt = Date.now();
        await t()
          .http()
          .put(REACHABILITY_ROUTES.autoRegenerate(operator.uuid, n(1).nodeId))
          .set('Authorization', `Bearer ${operator.token}`)
          .send({ intervalS: 600 })
          .expect(200);
        const { value: moved } = await timed(
          'node 1 serving a new port (since automatic regeneration was turned on)',
          setAt,
          async () => {
            const server = await details(n(1));
            return server.port !== oldPort && !server.inboundPending ? server : null;
          },
          REGENERATION_LIMIT_MS,
        );
        const newPort = moved.port!;
        // The censor still blocks the old port only.
        expect(await tlsHandshake(a, n(1).host, oldPort)).toBe('timeout');
        expect(await tlsHandshake(a, n(1).host, newPort)).toBe('ok');
        await timed(
          'node 1 works again for IR/AS44244 (since regeneration was turned on)',
          setAt,
          async () => (stateIn(await rowsOf(n(1)), a) === 'works' ? true : null),
          REGENERATION_LIMIT_MS,
        );
        const { seconds } = await timed(
          "A's feed carries node 1 on its new port (since regeneration was turned on)",
          setAt,
          async () => {
            const got = await feedFrom(a, x.sub.subscriptionUrl);
            return got.some((l) => `${l.host}:${l.port}` === endpoint(n(1), newPort)) ? got : null;
          },
          REGENERATION_LIMIT_MS,
        );
        expect(seconds * 1000).toBeLessThan(REGENERATION_LIMIT_MS);
      },
      REGENERATION_LIMIT_MS * 3,
    );
  },
);
