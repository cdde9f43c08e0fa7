import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildVlessLink } from '@scn/proto';
import { freePort } from '../../../test/support/processes';
import { describeNeeding } from '../../../test/support/requirements';
import { socksHttpGet, socksUdpExchange } from '../../../test/support/socks5';
import { aAnswers, aQuestion, startRecordingDnsServer } from '../../../test/support/udp-dns';
import { startVlessTestHost, type VlessTestHost } from '../../../test/support/vless-netns';
import { chooseFeedFormat } from './client-format';
import { renderFeed } from './render-feed';

/**
 * A real v2ray 4.34 client run from the feed's v2ray JSON, as an app that cannot read a pin
 * gets it, against a real v2ray VLESS server with a self-signed certificate on a test host
 * (docs/operators.md, "What each app gets" and "DNS"):
 * - the certificate the feed carries is all it needs to trust the server (no pin, nothing added);
 * - an app's DNS question (UDP to port 53, as a phone's VPN hands it to the socks inbound) is
 *   answered through the tunnel: the test DNS server sees it come from the VLESS server's side,
 *   never from the client's machine.
 * The test changes only the local socks port and the resolver's address (to its own DNS server).
 */
const describeLive = describeNeeding(['v2ray', 'netns'], 'a v2ray client run from the feed');
const NAME = 'probe.scn.test';
const ANSWER = '203.0.113.250';

let host: VlessTestHost;
const dir = mkdtempSync(join(tmpdir(), 'scn-feed-client-'));
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (describeLive === describe.skip) return;
  host = await startVlessTestHost(randomUUID(), 'dns28');
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The v2ray JSON the feed serves for one pinned TLS server on the test host. */
function servedConfig(): Record<string, unknown> {
  const pin = createHash('sha256').update(new X509Certificate(host.certificate).raw).digest('hex');
  const link = buildVlessLink({
    uuid: host.uuid,
    host: host.serverAddress,
    port: host.vlessTlsPort,
    name: 'Test host',
    params: { encryption: 'none', security: 'tls', sni: host.tlsName, type: 'tcp', pcs: pin },
  });
  const choice = chooseFeedFormat('v2ray', 'v2rayNG/1.8.29');
  if (!choice.ok || choice.format !== 'v2ray') throw new Error('no v2ray format');
  const feed = renderFeed('v2ray', [link], 'T', new Map([[pin, host.certificate]]), {
    client: choice.client,
    fakeIp: false,
  });
  return JSON.parse(feed.body) as Record<string, unknown>;
}

/** Starts v2ray from the configuration on a free socks port; resolves with the port. */
async function startClient(config: Record<string, unknown>): Promise<number> {
  const socksPort = await freePort();
  const inbounds = config.inbounds as { tag: string; port: number }[];
  const socks = inbounds.find((inbound) => inbound.tag === 'socks')!;
  socks.port = socksPort;
  config.inbounds = [socks];
  const file = join(dir, `client-${socksPort}.json`);
  writeFileSync(file, JSON.stringify(config));
  const child = spawn('/usr/bin/v2ray', ['-config', file], { stdio: 'ignore' });
  children.push(child);
  return socksPort;
}

async function retry<T>(what: () => Promise<T>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await what();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describeLive('a v2ray 4.34 client run from the feed', () => {
  it('should trust the self-signed server by the certificate the feed carries, nothing added', async () => {
    const socksPort = await startClient(servedConfig());
    const hits = host.probeHits();
    expect(await retry(() => socksHttpGet(socksPort, new URL(host.probeUrl)))).toBe(
      'HTTP/1.1 200 OK',
    );
    expect(host.probeHits()).toBeGreaterThan(hits);
  }, 30_000);

  it("should answer an app's DNS question through the VLESS server only", async () => {
    const dns = await startRecordingDnsServer(host.hostAddress, ANSWER);
    try {
      const config = servedConfig();
      const served = config.dns as { tag: string; servers: string[] };
      expect(served.servers.length).toBeGreaterThan(0);
      // The public resolvers replaced by the test's own, on the far side of the tunnel.
      config.dns = { ...served, servers: [{ address: dns.address, port: dns.port }] };
      const socksPort = await startClient(config);
      // The question goes to an address where nothing answers: only the core's DNS can.
      const target = { host: host.hostAddress, port: 53 };
      const reply = await retry(() => socksUdpExchange(socksPort, target, aQuestion(NAME, 0x5c17)));
      expect(reply.readUInt16BE(0)).toBe(0x5c17);
      expect(aAnswers(reply)).toEqual([ANSWER]);
      const askers = dns.askedBy(NAME);
      expect(askers.length).toBeGreaterThan(0);
      expect(new Set(askers)).toEqual(new Set([host.serverAddress]));
    } finally {
      await dns.close();
    }
  }, 30_000);

  it('should not answer it when the DNS rules are taken out (the check can fail)', async () => {
    const dns = await startRecordingDnsServer(host.hostAddress, ANSWER);
    try {
      const config = servedConfig();
      config.dns = { tag: 'dns-internal', servers: [{ address: dns.address, port: dns.port }] };
      const routing = config.routing as { rules: { outboundTag?: string }[] };
      routing.rules = routing.rules.filter((rule) => rule.outboundTag !== 'dns-out');
      const socksPort = await startClient(config);
      // Wait until the client carries traffic, then ask once.
      await retry(() => socksHttpGet(socksPort, new URL(host.probeUrl)));
      const target = { host: host.hostAddress, port: 53 };
      await expect(socksUdpExchange(socksPort, target, aQuestion(NAME, 1), 2000)).rejects.toThrow(
        /no UDP answer/,
      );
      expect(dns.askedBy(NAME)).toEqual([]);
    } finally {
      await dns.close();
    }
  }, 30_000);
});
