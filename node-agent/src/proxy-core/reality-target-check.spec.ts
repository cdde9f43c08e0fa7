import http2 from 'node:http2';
import https from 'node:https';
import type net from 'node:net';
import type tls from 'node:tls';
import { freeLoopbackPort } from './decoy-test.fixture';
import { cdnMarker, checkRealityTarget, type TargetProperty } from './reality-target-check';
import { generateSelfSignedCertificate } from './tls-certificate';

/**
 * The REALITY target check against TLS servers on loopback, each with one property broken. The
 * network rule of the test machines forbids real sites, so the check connects to the loopback
 * server (connectTo) while sending the target's name, and trusts the test certificate (ca).
 */

const NAME = 'target.test';
const made = generateSelfSignedCertificate(NAME);
const microsoft = generateSelfSignedCertificate('www.microsoft.com');

type Server = http2.Http2SecureServer | https.Server;
const servers: Server[] = [];

afterAll(async () => {
  for (const server of servers) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

const answer =
  (headers: Record<string, string>) =>
  (_request: unknown, response: http2.Http2ServerResponse | import('node:http').ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/html', ...headers });
    response.end('<html></html>');
  };

/** An HTTP/2 (and HTTP/1.1) TLS server; `tlsOptions` breaks one property. */
function h2Server(
  tlsOptions: tls.SecureContextOptions & { ecdhCurve?: string } = {},
  headers: Record<string, string> = { server: 'nginx' },
  certificate = made,
): Promise<number> {
  return listen(
    http2.createSecureServer(
      {
        key: certificate.keyPem,
        cert: certificate.certificatePem,
        allowHTTP1: true,
        ...tlsOptions,
      },
      answer(headers),
    ),
  );
}

async function problemsOf(
  port: number,
  options: { serverName?: string; ca?: string | null } = {},
): Promise<TargetProperty[]> {
  const report = await checkRealityTarget({
    dest: `${options.serverName ?? NAME}:443`,
    connectTo: { host: '127.0.0.1', port },
    ...(options.ca === null ? {} : { ca: options.ca ?? made.certificatePem }),
    timeoutMs: 3_000,
  });
  return report.problems.map((p) => p.property);
}

describe('checkRealityTarget', () => {
  it('should find no problem when the target has TLS 1.3, h2, X25519, a valid certificate and no CDN', async () => {
    const port = await h2Server();
    const report = await checkRealityTarget({
      dest: `${NAME}:443`,
      connectTo: { host: '127.0.0.1', port },
      ca: made.certificatePem,
    });
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ tlsVersion: 'TLSv1.3', alpn: 'h2', keyExchange: 'X25519' });
  });

  it('should report tls13 when the target stops at TLS 1.2', async () => {
    expect(await problemsOf(await h2Server({ maxVersion: 'TLSv1.2' }))).toEqual(['tls13']);
  });

  it('should report h2 when the target speaks only HTTP/1.1', async () => {
    const port = await listen(
      https.createServer(
        { key: made.keyPem, cert: made.certificatePem, ALPNProtocols: ['http/1.1'] },
        answer({ server: 'nginx' }),
      ),
    );
    expect(await problemsOf(port)).toEqual(['h2']);
  });

  it('should report x25519 when the target offers only P-256', async () => {
    expect(await problemsOf(await h2Server({ ecdhCurve: 'P-256' }))).toEqual(['x25519']);
  });

  it('should report cdn when the target answers with a CDN header', async () => {
    const port = await h2Server({}, { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6a7b-FRA' });
    expect(await problemsOf(port)).toEqual(['cdn']);
  });

  it('should report cdn when an HTTP/1.1 target answers through a cache (via)', async () => {
    const port = await listen(
      https.createServer(
        { key: made.keyPem, cert: made.certificatePem, ALPNProtocols: ['http/1.1'] },
        answer({ server: 'nginx', via: '1.1 varnish (Varnish/7.1)' }),
      ),
    );
    expect(await problemsOf(port)).toEqual(['h2', 'cdn']);
  });

  it('should report certificate when the certificate is for another name or untrusted', async () => {
    const port = await h2Server();
    expect(await problemsOf(port, { serverName: 'other.test' })).toEqual(['certificate']);
    expect(await problemsOf(port, { ca: null })).toEqual(['certificate']);
  });

  it('should report name when the target is one Xray warns about', async () => {
    const port = await h2Server({}, { server: 'nginx' }, microsoft);
    const problems = await problemsOf(port, {
      serverName: 'www.microsoft.com',
      ca: microsoft.certificatePem,
    });
    expect(problems).toEqual(['name']);
  });

  it('should report connect when nothing answers', async () => {
    expect(await problemsOf(await freeLoopbackPort())).toEqual(['connect']);
  });
});

describe('cdnMarker', () => {
  it.each([
    [{ 'x-amz-cf-id': 'abc' }, null, /x-amz-cf-id/],
    [{ 'x-served-by': 'cache-fra-etou8220' }, null, /x-served-by/],
    [{ server: 'AkamaiGHost' }, null, /AkamaiGHost/],
    [{ server: 'nginx' }, 'O=Cloudflare, Inc., CN=Cloudflare Inc ECC CA-3', /Cloudflare/],
  ])('should name the marker when %j (issuer %s) shows a CDN', (headers, issuer, marker) => {
    expect(cdnMarker(headers, issuer)).toMatch(marker);
  });

  it('should find none when an origin server answers', () => {
    expect(cdnMarker({ server: 'nginx', via: undefined }, "O=Let's Encrypt, CN=R11")).toBeNull();
  });
});
