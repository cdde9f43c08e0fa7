import http2 from 'node:http2';
import net from 'node:net';
import { agentConfigSchema, type AgentConfigInput } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { type DecoySite, startDecoySite } from '../proxy-core/decoy-site';
import { freeLoopbackPort } from '../proxy-core/decoy-test.fixture';
import { generateSelfSignedCertificate } from '../proxy-core/tls-certificate';
import { checkDecoyLine, checkRealityTargetLine } from './doctor-probing';

/** doctor's probing lines against loopback servers (the network rule forbids real targets). */

const config = (overrides: Partial<AgentConfigInput>) =>
  agentConfigSchema.parse(sampleConfig(overrides));

const realityInbound = (dest: string) => ({
  security: 'reality' as const,
  network: 'tcp' as const,
  sni: dest.replace(/:\d+$/, ''),
  realityDest: dest,
  pbk: 'x',
  sid: 'ab',
  realityPrivateKey: 'y',
});
const tlsInbound = (network: 'tcp' | 'ws' = 'tcp') => ({
  security: 'tls' as const,
  network,
  sni: '203.0.113.7',
  certificateFile: '/nonexistent/cert.pem',
  keyFile: '/nonexistent/key.pem',
});

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe('checkRealityTargetLine', () => {
  const made = generateSelfSignedCertificate('target.test');

  async function target(options: { maxVersion?: 'TLSv1.2'; ecdhCurve?: string }) {
    const server = http2.createSecureServer(
      { key: made.keyPem, cert: made.certificatePem, allowHTTP1: true, ...options },
      (_request, response) => {
        response.writeHead(200, { server: 'nginx' });
        response.end('ok');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return (server.address() as net.AddressInfo).port;
  }

  it('should pass when the target has every property', async () => {
    const port = await target({});
    const check = await checkRealityTargetLine(
      config({
        core: { kind: 'xray', binary: '/x', apiPort: 1, workDir: '/tmp/x' },
        inbound: realityInbound('target.test:443'),
      }),
      { realityTarget: { connectTo: { host: '127.0.0.1', port }, ca: made.certificatePem } },
    );
    expect(check).toMatchObject({ name: 'REALITY target', result: 'PASS' });
    expect(check!.detail).toContain('TLSv1.3, ALPN h2, X25519');
  });

  it('should fail with each problem and the --reality-dest fix when the target lacks TLS 1.3 and X25519', async () => {
    const port = await target({ maxVersion: 'TLSv1.2', ecdhCurve: 'P-256' });
    const check = await checkRealityTargetLine(
      config({ inbound: realityInbound('target.test:443') }),
      { realityTarget: { connectTo: { host: '127.0.0.1', port }, ca: made.certificatePem } },
    );
    expect(check!.result).toBe('FAIL');
    expect(check!.detail).toContain('not TLS 1.3');
    expect(check!.detail).toContain('not X25519');
    expect(check!.hint).toContain('scn-agent decoy --reality-dest host:port');
  });

  it('should say nothing when the inbound is not REALITY', async () => {
    expect(await checkRealityTargetLine(config({ inbound: tlsInbound() }))).toBeNull();
  });
});

describe('checkDecoyLine', () => {
  let site: DecoySite;
  beforeAll(async () => {
    site = await startDecoySite();
    closers.push(() => site.close());
  });

  it("should pass with the decoy's status line when the built-in decoy answers", async () => {
    const check = await checkDecoyLine(
      config({ inbound: tlsInbound(), decoy: { port: site.port } }),
      true,
    );
    expect(check).toMatchObject({ result: 'PASS' });
    expect(check!.detail).toContain(`127.0.0.1:${site.port}: HTTP/1.1 200 OK`);
  });

  it('should fail when the upstream answers something that is not HTTP', async () => {
    const server = net.createServer((socket) => socket.resume().end('SSH-2.0-OpenSSH_9.2\r\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const port = (server.address() as net.AddressInfo).port;
    const check = await checkDecoyLine(
      config({ inbound: tlsInbound(), decoy: { upstream: `127.0.0.1:${port}` } }),
      true,
    );
    expect(check).toMatchObject({ result: 'FAIL', hint: expect.stringContaining('--builtin') });
    expect(check!.detail).toContain('not an HTTP answer');
  });

  it('should fail when the running agent has no decoy listening, and skip while it is stopped', async () => {
    const port = await freeLoopbackPort();
    const stopped = config({ inbound: tlsInbound(), decoy: { port } });
    expect((await checkDecoyLine(stopped, false))!.result).toBe('SKIP');
    expect((await checkDecoyLine(stopped, true))!.result).toBe('FAIL');
  });

  it('should check ws, whose TLS front falls back too, and say nothing for REALITY', async () => {
    const ws = config({
      inbound: { ...tlsInbound('ws'), path: '/abc' },
      decoy: { port: site.port },
    });
    expect((await checkDecoyLine(ws, true))!.result).toBe('PASS');
    expect(
      await checkDecoyLine(config({ inbound: realityInbound('a.test:443') }), true),
    ).toBeNull();
  });
});
