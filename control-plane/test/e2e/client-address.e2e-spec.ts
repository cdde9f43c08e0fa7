import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config/app-config';
import { describeNeeding } from '../support/requirements';
import { startTestApp, type TestApp } from '../support/test-app';

/** The contact form: 5 per client address per hour, the tightest per-address limit. */
const contact = (t: TestApp, forwardedFor: string) =>
  t
    .http()
    .post('/api/contact')
    .set('X-Forwarded-For', forwardedFor)
    .send({ email: 'visitor@example.com', subject: 'Hello', message: 'A question' });

describe('X-Forwarded-For from a peer that is not a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The proxy is somewhere else: this test's loopback connections are an untrusted peer.
    t = await startTestApp({ TRUST_PROXY: '203.0.113.10' });
  });
  afterAll(() => t.close());

  it('should be ignored: a new spoofed address per request does not escape the per-address limit', async () => {
    for (let i = 1; i <= 5; i += 1) await contact(t, `198.51.100.${i}`).expect(201);
    const limited = await contact(t, '198.51.100.6').expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    const [row] = await t.db.query<{ ip_address: string }>(
      `SELECT ip_address FROM contact_messages ORDER BY id DESC LIMIT 1`,
    );
    expect(row?.ip_address).toBe('127.0.0.1');
  });
});

describe('X-Forwarded-For from the trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('should name the client, each counted on its own', async () => {
    for (let i = 1; i <= 8; i += 1) await contact(t, `198.51.100.${i}`).expect(201);
    const [row] = await t.db.query<{ ip_address: string }>(
      `SELECT ip_address FROM contact_messages ORDER BY id DESC LIMIT 1`,
    );
    expect(row?.ip_address).toBe('198.51.100.8');
  });
});

describe('docker/compose.yml', () => {
  const compose = readFileSync(join(REPO_ROOT, 'docker', 'compose.yml'), 'utf8');
  /** A service's lines: from its name to the next line indented as little. */
  const service = (name: string) => {
    const start = compose.indexOf(`\n  ${name}:\n`);
    expect(start).toBeGreaterThan(0);
    const rest = compose.slice(start + 1);
    const end = rest.slice(1).search(/\n {0,2}\S/);
    return end < 0 ? rest : rest.slice(0, end + 1);
  };

  /** What every replica shares (`x-control-plane: &control-plane`, merged into each). */
  const shared = compose.slice(compose.indexOf('x-control-plane:'), compose.indexOf('\nservices:'));
  const replicas = ['control-plane-a', 'control-plane-b'];

  it("should trust X-Forwarded-For from its reverse proxy's fixed address alone", () => {
    const proxyAddress = /ipv4_address: ([\d.]+)/.exec(service('proxy'))?.[1];
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const trusted = [...compose.matchAll(/^\s*TRUST_PROXY:\s*(.+)$/gm)].map((m) => m[1]?.trim());
    expect(trusted).toEqual([proxyAddress]);
    expect(shared).toContain(`TRUST_PROXY: ${proxyAddress}`);
    for (const name of replicas) expect(service(name)).toContain('<<: *control-plane-env');
  });

  it('should not publish a replica: clients come through the proxy', () => {
    expect(shared).not.toContain('ports:');
    for (const name of replicas) expect(service(name)).not.toContain('ports:');
  });
});

/**
 * The same with real peers: a network namespace holding the trusted proxy's address and another
 * peer's, on a veth pair to this host (TEST-NET-3 addresses, traffic only on the veth).
 */
describeNeeding(['netns'], 'X-Forwarded-For from real peers in a test network')(
  'X-Forwarded-For from real peers: the trusted proxy and another host',
  () => {
    const tag = `acc${process.pid % 100000}`;
    const ns = `${tag}-xff`;
    let t: TestApp;
    let base = '';
    let hostAddress = '';
    let proxyAddress = '';
    let otherAddress = '';

    const sh = (args: string[]) => execFileSync(args[0]!, args.slice(1), { encoding: 'utf8' });
    const inNs = (args: string[]) => sh(['ip', 'netns', 'exec', ns, ...args]);

    beforeAll(async () => {
      // A /29 of 203.0.113.0/24 that no interface here uses yet (other sessions may use some).
      const used = sh(['ip', '-4', '-o', 'addr']);
      const block = [...Array(30).keys()]
        .map((k) => (k + 1) * 8)
        .sort(() => Math.random() - 0.5)
        .find((b) => ![1, 2, 3].some((i) => used.includes(`203.0.113.${b + i}/`)));
      if (block === undefined) throw new Error('no free /29 in 203.0.113.0/24');
      hostAddress = `203.0.113.${block + 1}`;
      proxyAddress = `203.0.113.${block + 2}`;
      otherAddress = `203.0.113.${block + 3}`;
      sh(['ip', 'netns', 'add', ns]);
      sh(['ip', 'link', 'add', `${tag}h`, 'type', 'veth', 'peer', 'name', `${tag}n`]);
      sh(['ip', 'link', 'set', `${tag}n`, 'netns', ns]);
      sh(['ip', 'addr', 'add', `${hostAddress}/29`, 'dev', `${tag}h`]);
      sh(['ip', 'link', 'set', `${tag}h`, 'up']);
      inNs(['ip', 'addr', 'add', `${proxyAddress}/29`, 'dev', `${tag}n`]);
      inNs(['ip', 'addr', 'add', `${otherAddress}/29`, 'dev', `${tag}n`]);
      inNs(['ip', 'link', 'set', `${tag}n`, 'up']);
      inNs(['ip', 'link', 'set', 'lo', 'up']);

      t = await startTestApp({ TRUST_PROXY: proxyAddress });
      await t.app.listen(0, hostAddress);
      base = `http://${hostAddress}:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await t?.close();
      execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
      try {
        execFileSync('ip', ['link', 'del', `${tag}h`], { stdio: 'ignore' });
      } catch {
        // gone with the namespace
      }
    });

    /** A contact message sent from `from` in the namespace, claiming `forwardedFor`; the status. */
    // Asynchronous: the control plane answering it runs in this very process.
    const contactFrom = async (from: string, forwardedFor: string) =>
      Number(
        (
          await promisify(execFile)('ip', [
            'netns',
            'exec',
            ns,
            'curl',
            '-s',
            '-o',
            '/dev/null',
            '-w',
            '%{http_code}',
            '--max-time',
            '20',
            '--interface',
            from,
            '-H',
            'content-type: application/json',
            '-H',
            `x-forwarded-for: ${forwardedFor}`,
            '-d',
            JSON.stringify({
              email: 'visitor@example.com',
              subject: 'Hello',
              message: 'A question',
            }),
            `${base}/api/contact`,
          ])
        ).stdout,
      );
    const lastAddress = async () =>
      (
        await t.db.query<{ ip_address: string }>(
          `SELECT ip_address FROM contact_messages ORDER BY id DESC LIMIT 1`,
        )
      )[0]?.ip_address;

    it("should believe the proxy's X-Forwarded-For and ignore another host's", async () => {
      for (let i = 1; i <= 7; i += 1)
        expect(await contactFrom(proxyAddress, `198.51.100.${i}`)).toBe(201);
      expect(await lastAddress()).toBe('198.51.100.7');

      for (let i = 11; i <= 15; i += 1)
        expect(await contactFrom(otherAddress, `198.51.100.${i}`)).toBe(201);
      expect(await lastAddress()).toBe(otherAddress);
      expect(await contactFrom(otherAddress, '198.51.100.16')).toBe(429);
      // Through the proxy, that client is still a client of its own.
      expect(await contactFrom(proxyAddress, '198.51.100.16')).toBe(201);
    });
  },
);
