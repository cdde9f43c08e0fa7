import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { checkEndpoint, type EndpointCheck, probeTargetOf } from '@scn/proto';
import { type ProbeTargets, startProbeTargets } from './probe-targets.support';
import { V2RAY } from './v2ray-node';

/**
 * What a vantage point sees (`scn-agent probe`), against a real v2ray 4.34 on loopback and
 * stand-ins for what a censor does: every error class the probe reports, from the real sockets.
 */
const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`probe endpoints e2e skipped: ${V2RAY} is missing`);
const describeLive = hasV2ray ? describe : describe.skip;

let targets: ProbeTargets;
beforeAll(async () => {
  if (hasV2ray) targets = await startProbeTargets(V2RAY, randomUUID());
});
afterAll(() => targets?.close());

function check(overrides: Partial<EndpointCheck>): EndpointCheck {
  return {
    host: '127.0.0.1',
    port: targets.ports.none,
    uuid: targets.uuid,
    security: 'none',
    network: 'tcp',
    path: targets.wsPath,
    serverName: null,
    certificateSha256: null,
    target: probeTargetOf(targets.targetUrl),
    timeoutMs: 5_000,
    ...overrides,
  };
}

describeLive('a vantage point testing endpoints of a real v2ray', () => {
  const costs: string[] = [];
  afterAll(() => console.log(`bytes per endpoint test:\n${costs.join('\n')}`));

  it.each([
    ['none over tcp', () => ({})],
    [
      'tls over tcp, pinned',
      () => ({ port: targets.ports.tls, security: 'tls' as const, certificateSha256: targets.pin }),
    ],
    [
      'tls over ws, pinned',
      () => ({
        port: targets.ports.tlsWs,
        security: 'tls' as const,
        network: 'ws' as const,
        certificateSha256: targets.pin,
      }),
    ],
    ['none over ws', () => ({ port: targets.ports.noneWs, network: 'ws' as const })],
  ])('should answer ok with the right UUID (%s)', async (name, overrides) => {
    const result = await checkEndpoint(check(overrides()));
    expect(result).toMatchObject({
      errorClass: 'ok',
      tcpOk: true,
      handshakeOk: true,
      vlessOk: true,
    });
    expect(result.totalMs).toBeGreaterThanOrEqual(result.tcpMs);
    costs.push(`  ${name}: ${result.bytesSent} B sent, ${result.bytesReceived} B received`);
  });

  it('should answer closed for a UUID the server does not know', async () => {
    for (const overrides of [
      {},
      { port: targets.ports.tls, security: 'tls' as const, certificateSha256: targets.pin },
      { port: targets.ports.noneWs, network: 'ws' as const },
    ]) {
      const result = await checkEndpoint(check({ ...overrides, uuid: randomUUID() }));
      expect(result).toMatchObject({ errorClass: 'closed', handshakeOk: true, vlessOk: false });
    }
  });

  it('should answer wrong_certificate when the pin is not the certificate', async () => {
    const result = await checkEndpoint(
      check({ port: targets.ports.tls, security: 'tls', certificateSha256: 'ab'.repeat(32) }),
    );
    expect(result).toMatchObject({
      errorClass: 'wrong_certificate',
      tcpOk: true,
      handshakeOk: false,
    });
  });

  it('should answer not_vless for a WebSocket path the server does not serve', async () => {
    const result = await checkEndpoint(
      check({ port: targets.ports.noneWs, network: 'ws', path: '/nope' }),
    );
    expect(result).toMatchObject({ errorClass: 'not_vless', tcpOk: true });
  });

  it('should answer not_vless for a service that is not VLESS', async () => {
    const result = await checkEndpoint(check({ port: targets.httpPort }));
    expect(result).toMatchObject({ errorClass: 'not_vless', tcpOk: true });
  });

  it('should answer tls_alert when TLS meets a plain VLESS port', async () => {
    const result = await checkEndpoint(check({ security: 'tls', certificateSha256: targets.pin }));
    expect(result.handshakeOk).toBe(false);
    expect(['tls_alert', 'closed']).toContain(result.errorClass);
  });

  it('should answer refused for a closed port', async () => {
    const result = await checkEndpoint(check({ port: targets.closedPort }));
    expect(result).toMatchObject({ errorClass: 'refused', tcpOk: false });
  });

  it('should answer timeout for a port that accepts and never answers', async () => {
    const result = await checkEndpoint(
      check({
        port: targets.silentPort,
        security: 'tls',
        certificateSha256: targets.pin,
        timeoutMs: 500,
      }),
    );
    expect(result).toMatchObject({ errorClass: 'timeout', tcpOk: true, handshakeOk: false });
  });

  it('should answer reset when the connection is reset right after the ClientHello', async () => {
    const before = targets.resetsAfterHello();
    const result = await checkEndpoint(
      check({ port: targets.resetPort, security: 'tls', certificateSha256: targets.pin }),
    );
    expect(result).toMatchObject({ errorClass: 'reset', tcpOk: true, handshakeOk: false });
    expect(targets.resetsAfterHello()).toBe(before + 1);
  });

  it('should test only TCP and the handshake of a REALITY endpoint', async () => {
    const result = await checkEndpoint(
      check({ port: targets.ports.tls, security: 'reality', serverName: 'www.example.com' }),
    );
    expect(result).toMatchObject({
      errorClass: 'vless_untested',
      tcpOk: true,
      handshakeOk: true,
      vlessOk: false,
    });
  });
});
