import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { checkVless, probeTargetOf, type VlessCheck } from '@scn/proto';
import { startVlessTestHost, type VlessTestHost } from '../support/vless-netns';
import { describeNeeding } from '../support/requirements';

const UUID = randomUUID();
let host: VlessTestHost;
const describeLive = describeNeeding(['v2ray', 'netns'], 'the VLESS check against a test host');
beforeAll(async () => {
  host = await startVlessTestHost(UUID);
});
afterAll(() => host?.close());

function check(overrides: Partial<VlessCheck> = {}): VlessCheck {
  return {
    address: host.serverAddress,
    port: host.vlessPort,
    uuid: UUID,
    security: 'none',
    serverName: null,
    target: probeTargetOf(host.probeUrl),
    timeoutMs: 8_000,
    ...overrides,
  };
}

describeLive('the VLESS check against a real v2ray server', () => {
  it('should pass when the server accepts the UUID and the probe target answers through it', async () => {
    const before = host.probeHits();
    const result = await checkVless(check());
    expect(result).toMatchObject({ ok: true });
    expect(host.probeHits()).toBe(before + 1);
  });

  it('should fail with a UUID the server does not know', async () => {
    const before = host.probeHits();
    const result = await checkVless(check({ uuid: randomUUID() }));
    expect(result).toMatchObject({ ok: false, reason: 'closed' });
    expect(host.probeHits()).toBe(before);
  });

  it('should fail against a service that is not VLESS', async () => {
    // A client that resets the connection after the banner (a scanner, a check that gave up)
    // must not take the service down for the next one.
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: host.serverAddress, port: host.notVlessPort });
      socket.once('data', () => {
        socket.resetAndDestroy();
        resolve();
      });
      socket.once('error', reject);
    });
    const result = await checkVless(check({ port: host.notVlessPort }));
    expect(result).toMatchObject({ ok: false, reason: 'not_vless' });
  });

  it('should fail when nothing listens', async () => {
    const result = await checkVless(check({ port: host.vlessTlsPort + 1 }));
    expect(result).toMatchObject({ ok: false, reason: 'connect_failed' });
  });

  it('should pass over TLS when the certificate is valid for the name, and the target over https', async () => {
    const tls = { port: host.vlessTlsPort, security: 'tls' as const, ca: host.certificate };
    expect(await checkVless(check({ ...tls, serverName: host.tlsName }))).toMatchObject({
      ok: true,
    });
    const before = host.probeHits();
    expect(
      await checkVless(
        check({ ...tls, serverName: host.tlsName, target: probeTargetOf(host.httpsProbeUrl) }),
      ),
    ).toMatchObject({ ok: true });
    expect(host.probeHits()).toBe(before + 1);
    expect(
      await checkVless(check({ ...tls, serverName: host.tlsName, uuid: randomUUID() })),
    ).toMatchObject({ ok: false, reason: 'closed' });
  });

  it('should fail over TLS with a certificate that is not trusted or not for the name', async () => {
    const tls = { port: host.vlessTlsPort, security: 'tls' as const };
    expect(await checkVless(check({ ...tls, serverName: host.tlsName }))).toMatchObject({
      ok: false,
      reason: 'tls_failed',
    });
    expect(
      await checkVless(check({ ...tls, serverName: 'other.test', ca: host.certificate })),
    ).toMatchObject({ ok: false, reason: 'tls_failed' });
    // An https target whose certificate is not trusted: the answer cannot be taken as real.
    expect(await checkVless(check({ target: probeTargetOf(host.httpsProbeUrl) }))).toMatchObject({
      ok: false,
    });
    // Plain VLESS to a TLS port is not a VLESS answer.
    expect(await checkVless(check({ port: host.vlessTlsPort }))).toMatchObject({ ok: false });
  });
});
