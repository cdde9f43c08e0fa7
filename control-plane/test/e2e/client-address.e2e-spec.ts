import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config/app-config';
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

  it("should trust X-Forwarded-For from its reverse proxy's fixed address alone", () => {
    const proxyAddress = /ipv4_address: ([\d.]+)/.exec(service('proxy'))?.[1];
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const trusted = [...compose.matchAll(/^\s*TRUST_PROXY:\s*(.+)$/gm)].map((m) => m[1]?.trim());
    expect(trusted).toEqual([proxyAddress]);
    expect(service('control-plane')).toContain(`TRUST_PROXY: ${proxyAddress}`);
  });

  it('should not publish the control plane to the world, only to the host loopback', () => {
    const ports = /^ {4}ports: (.+)$/m.exec(service('control-plane'))?.[1];
    expect(ports).toBe("['127.0.0.1:5050:5050']");
  });
});
