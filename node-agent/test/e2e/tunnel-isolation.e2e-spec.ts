import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { XrayCore } from '../../src/proxy-core/xray-core';
import { startTestDnsServer, type TestDnsServer } from './dns-server.support';
import {
  createTestNetns,
  netnsSkipReason,
  startNamespacedHttpServer,
  type TestNetns,
} from './netns.support';
import { countingServer, freePort, killAndWait, startVlessClient } from './proxy-core.support';
import { exchangeThroughSocks, HTTP2_PREFACE, httpGetThroughSocks } from './socks-client.support';

/**
 * A subscriber reached the node itself through the tunnel (the core API, loopback
 * services, names resolving to loopback, the node's own addresses). A real v2ray 4.34 node runs
 * the agent's generated config; a second v2ray is the subscriber's VLESS client. The only
 * packets sent go to loopback and to a test host of our own in a network namespace
 * (TEST-NET-2). Every other range is checked in the generated config (core-config.spec.ts).
 */
const V2RAY = '/usr/bin/v2ray';
const CLIENT_UUID = '2c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f';
const TEST_HOST_BODY = 'the test host behind the tunnel';
const LOOPBACK_NAME = 'loopback.tun15.test';
const TEST_HOST_NAME = 'testhost.tun15.test';
/** Answers the test host first, then 127.0.0.1 for ever (TTL 0): DNS rebinding. */
const REBINDING_NAME = 'rebind.tun15.test';

const reason = existsSync(V2RAY)
  ? netnsSkipReason()
  : `${V2RAY} is missing (apt-get install v2ray)`;
if (reason) console.warn(`tunnel isolation e2e skipped: ${reason}`);
const describeLive = reason ? describe.skip : describe;

describeLive('tunnel isolation with a real v2ray and a namespaced test host', () => {
  let workDir: string;
  let netns: TestNetns | undefined;
  let testHost: ChildProcess | undefined;
  let testHostPort: number;
  let loopbackService: Awaited<ReturnType<typeof countingServer>>;
  let ipv6LoopbackService: Awaited<ReturnType<typeof countingServer>>;
  let ownAddressService: Awaited<ReturnType<typeof countingServer>>;
  let core: XrayCore;
  let client: ChildProcess | undefined;
  let socksPort: number;
  let apiPort: number;
  let dns: TestDnsServer | undefined;
  let rebindTarget: ChildProcess | undefined;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'scn-tun15-'));
    netns = await createTestNetns('tun15');
    testHostPort = 8080;
    testHost = await startNamespacedHttpServer(netns, testHostPort, TEST_HOST_BODY);
    loopbackService = await countingServer('127.0.0.1');
    ipv6LoopbackService = await countingServer('::1');
    ownAddressService = await countingServer(netns.hostAddress);
    // The test host also answers on the loopback service's port, as the rebinding name's
    // first (checked) address.
    rebindTarget = await startNamespacedHttpServer(netns, loopbackService.port, 'checked address');
    apiPort = await freePort();
    const nodePort = await freePort();
    // The core's nameserver, on loopback: a resolver that knows localhost, and an attacker's.
    dns = await startTestDnsServer((name, count) => {
      if (name === 'localhost') return '127.0.0.1';
      if (name === REBINDING_NAME) return count === 1 ? netns!.nsAddress : '127.0.0.1';
      return null;
    });
    // Started after the veth exists: the node's own addresses are read when the config is written.
    core = new XrayCore(
      {
        kind: 'v2ray',
        binary: V2RAY,
        workDir: path.join(workDir, 'core'),
        apiPort,
        inbound: { port: nodePort, listen: '127.0.0.1', security: 'none', network: 'tcp' },
        // TEST-NET-2 is special-purpose (blocked); this one test host is let through.
        allowedDestinationCidrs: [`${netns.nsAddress}/32`],
        dnsHosts: { [LOOPBACK_NAME]: '127.0.0.1', [TEST_HOST_NAME]: netns.nsAddress },
        nameservers: async () => [`127.0.0.1:${dns!.port}`],
      },
      { stopTimeoutMs: 2000 },
    );
    await core.start([CLIENT_UUID]);
    socksPort = await freePort();
    client = await startVlessClient(V2RAY, workDir, nodePort, [{ socksPort, uuid: CLIENT_UUID }]);
  }, 30_000);

  afterAll(async () => {
    await core?.stop();
    await killAndWait(client);
    await killAndWait(testHost);
    await killAndWait(rebindTarget);
    await loopbackService?.close();
    await ipv6LoopbackService?.close();
    await ownAddressService?.close();
    await dns?.close();
    await netns?.remove();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('should carry the subscriber to the test host when it is addressed by IP', async () => {
    const result = await httpGetThroughSocks(socksPort, netns!.nsAddress, testHostPort);
    expect(result).toEqual({ status: 200, body: TEST_HOST_BODY });
  });

  it('should carry the subscriber to the test host when it is addressed by name', async () => {
    const result = await httpGetThroughSocks(socksPort, TEST_HOST_NAME, testHostPort);
    expect(result).toEqual({ status: 200, body: TEST_HOST_BODY });
  });

  it('should answer a gRPC preface on the API port when asked directly (probe control)', async () => {
    const received = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(apiPort, '127.0.0.1', () => socket.write(HTTP2_PREFACE));
      socket.once('data', (chunk: Buffer) => {
        socket.destroy();
        resolve(chunk);
      });
      socket.once('error', reject);
    });
    expect(received.length).toBeGreaterThan(0);
  });

  it.each([
    ['localhost'],
    ['127.0.0.1'],
    ['127.0.0.2'],
    ['0.0.0.0'],
    ['::1'],
    ['::ffff:127.0.0.1'],
    [LOOPBACK_NAME],
  ])('should not let the subscriber reach the core API at %s', async (host) => {
    const exchange = await exchangeThroughSocks(socksPort, host, apiPort, HTTP2_PREFACE, 2000);
    expect(exchange.received.length).toBe(0);
  });

  it.each([['localhost'], ['127.0.0.1'], ['0.0.0.0'], [LOOPBACK_NAME], ['::ffff:127.0.0.1']])(
    'should not let the subscriber reach another loopback service at %s',
    async (host) => {
      const result = await httpGetThroughSocks(socksPort, host, loopbackService.port, 2000);
      expect(result).toBeNull();
      expect(loopbackService.hits()).toBe(0);
    },
  );

  it('should not let the subscriber reach an IPv6 loopback service at [::1]', async () => {
    const result = await httpGetThroughSocks(socksPort, '::1', ipv6LoopbackService.port, 2000);
    expect(result).toBeNull();
    expect(ipv6LoopbackService.hits()).toBe(0);
  });

  it('should not let the subscriber reach a service on the node own veth address', async () => {
    const result = await httpGetThroughSocks(
      socksPort,
      netns!.hostAddress,
      ownAddressService.port,
      2000,
    );
    expect(result).toBeNull();
    expect(ownAddressService.hits()).toBe(0);
  });

  it('should dial the address the router checked when a name rebinds to loopback', async () => {
    // The router's lookup answers the test host (allowed); any later lookup answers 127.0.0.1,
    // where a loopback service listens on the same port. The core's cached answer is dialed.
    const result = await httpGetThroughSocks(socksPort, REBINDING_NAME, loopbackService.port, 2000);
    expect(result).toEqual({ status: 200, body: 'checked address' });
    expect(loopbackService.hits()).toBe(0);
    expect(dns!.queries(REBINDING_NAME)).toBe(1);
  });

  it('should still carry the subscriber to the test host after the refusals', async () => {
    const result = await httpGetThroughSocks(socksPort, netns!.nsAddress, testHostPort);
    expect(result).toEqual({ status: 200, body: TEST_HOST_BODY });
  });
});
