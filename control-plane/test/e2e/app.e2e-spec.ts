import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
/** The app's clock: the launch period (LAUNCH_PERIOD_ENDS 2026-03-31 here) applies until it passes. */
let now = new Date('2026-03-31T23:00:00Z');
/** A script the build compressed both ways, and a stylesheet it wrote a gzip copy of only. */
const script = Buffer.from(
  `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ i })))};`,
);
const style = Buffer.from('.card { color: red; }\n'.repeat(100));
beforeAll(async () => {
  const portal = mkdtempSync(join(tmpdir(), 'scn-portal-'));
  mkdirSync(join(portal, 'assets'));
  writeFileSync(
    join(portal, 'index.html'),
    '<!doctype html><html><head><title>SCN</title></head><body>portal</body></html>',
  );
  writeFileSync(join(portal, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(join(portal, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["secret"]}');
  writeFileSync(join(portal, 'robots.txt.map'), '{"version":3}');
  writeFileSync(join(portal, 'assets', 'rows-Xy12_ab.js'), script);
  writeFileSync(join(portal, 'assets', 'rows-Xy12_ab.js.br'), brotliCompressSync(script));
  writeFileSync(join(portal, 'assets', 'rows-Xy12_ab.js.gz'), gzipSync(script));
  writeFileSync(join(portal, 'assets', 'card-Q9.css'), style);
  writeFileSync(join(portal, 'assets', 'card-Q9.css.gz'), gzipSync(style));
  writeFileSync(join(portal, 'favicon.svg'), style);
  writeFileSync(join(portal, 'favicon.svg.br'), brotliCompressSync(style));
  t = await startTestApp(
    { PORTAL_DIST: portal, SUPPORT_EMAIL: 'help@scn.test', LAUNCH_PERIOD_ENDS: '2026-03-31' },
    { clock: { now: () => now } },
  );
});
afterAll(() => t.close());

describe('the HTTP application', () => {
  it('should report health with the database reachable', async () => {
    const res = await t.http().get('/healthz').expect(200);
    expect(res.body).toMatchObject({ success: true, status: 'ok', database: 'ok' });
  });

  it.each(['/', '/servers', '/servers/', '/Economics', '/client-dashboard', '/node-dashboard'])(
    'should serve the portal for the page %s with run-time settings as meta tags',
    async (path) => {
      const res = await t.http().get(path).set('Accept', 'text/html').expect(200);
      expect(res.text).toContain('portal');
      expect(res.text).toContain('<meta name="scn:support-email" content="help@scn.test" />');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each(['/no/such/page', '/serverz', '/node-dashboard/x', '/faqs/more', '/robots'])(
    'should serve the portal with a 404 for %s, which is none of its pages',
    async (path) => {
      const res = await t.http().get(path).set('Accept', 'text/html').expect(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('portal');
      expect(res.text).toContain('<meta name="scn:support-email" content="help@scn.test" />');
    },
  );

  it("should tell the portal the launch period's end and whether it applies by the server's clock", async () => {
    const meta = async () => {
      const res = await t.http().get('/economics').set('Accept', 'text/html').expect(200);
      return {
        ends: /<meta name="scn:launch-period-ends" content="([^"]*)" \/>/.exec(res.text)?.[1],
        active: /<meta name="scn:launch-period-active" content="([^"]*)" \/>/.exec(res.text)?.[1],
        etag: res.headers.etag,
      };
    };
    try {
      const during = await meta();
      expect(during).toMatchObject({ ends: '2026-03-31T23:59:59.999Z', active: 'true' });
      now = new Date('2026-04-01T00:00:00Z');
      const after = await meta();
      expect(after).toMatchObject({ ends: '2026-03-31T23:59:59.999Z', active: 'false' });
      // Another page, so a browser revalidating the old one is not told it is unchanged.
      expect(after.etag).not.toBe(during.etag);
    } finally {
      now = new Date('2026-03-31T23:00:00Z');
    }
  });

  it('should serve hashed assets with a long cache', async () => {
    const res = await t.http().get('/assets/app-abc123.js').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('should never serve a source map', async () => {
    for (const path of [
      '/assets/app-abc123.js.map',
      '/robots.txt.map',
      '/assets/APP-abc123.js.MAP',
    ]) {
      for (const accept of ['*/*', 'text/html', 'application/json']) {
        const res = await t.http().get(path).set('Accept', accept).expect(404);
        expect(res.text).not.toContain('"version":3');
      }
    }
  });

  describe('compression', () => {
    let server: Server;
    let base: string;
    beforeAll(async () => {
      server = t.app.getHttpServer() as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** The bytes as sent, without the decoding every HTTP client library does. */
    const raw = (
      path: string,
      headers: Record<string, string> = {},
      method = 'GET',
    ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const decode = (encoding: string | undefined, body: Buffer): Buffer =>
      encoding === 'br'
        ? brotliDecompressSync(body)
        : encoding === 'gzip'
          ? gunzipSync(body)
          : body;

    it.each([
      ['br', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['*', 'br'],
      ['*;q=0.1, br;q=0', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      ['', undefined],
    ])(
      'should send a hashed script with Accept-Encoding "%s" coded as %s, decoding to the same bytes',
      async (accept, expected) => {
        const res = await raw(
          '/assets/rows-Xy12_ab.js',
          accept ? { 'Accept-Encoding': accept } : {},
        );
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(expected);
        expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
        expect(res.headers.vary).toMatch(/Accept-Encoding/i);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(Number(res.headers['content-length'])).toBe(res.body.length);
        if (expected) expect(res.body.length).toBeLessThan(script.length / 4);
        expect(decode(expected, res.body).equals(script)).toBe(true);
      },
    );

    it('should send the copy there is, and the file itself where there is none', async () => {
      const gz = await raw('/assets/card-Q9.css', { 'Accept-Encoding': 'br, gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['content-type']).toMatch(/^text\/css/);
      expect(gunzipSync(gz.body).equals(style)).toBe(true);
      const svg = await raw('/favicon.svg', { 'Accept-Encoding': 'gzip, br' });
      expect(svg.headers['content-encoding']).toBe('br');
      expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(svg.headers.vary).toMatch(/Accept-Encoding/i);
      expect(svg.headers['cache-control']).toBe('public, max-age=3600');
      const plain = await raw('/assets/app-abc123.js', { 'Accept-Encoding': 'br, gzip' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe('console.log(1)');
    });

    it('should answer HEAD with the headers of GET and no body', async () => {
      const get = await raw('/assets/rows-Xy12_ab.js', { 'Accept-Encoding': 'br' });
      const head = await raw('/assets/rows-Xy12_ab.js', { 'Accept-Encoding': 'br' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary'])
        expect([name, head.headers[name]]).toEqual([name, get.headers[name]]);
      const page = await raw(
        '/servers',
        { Accept: 'text/html', 'Accept-Encoding': 'gzip' },
        'HEAD',
      );
      expect(page.status).toBe(200);
      expect(page.body.length).toBe(0);
      expect(page.headers['content-encoding']).toBe('gzip');
      expect(Number(page.headers['content-length'])).toBeGreaterThan(0);
    });

    it('should answer a Range request with a range of the file itself', async () => {
      const res = await raw('/assets/rows-Xy12_ab.js', {
        'Accept-Encoding': 'br, gzip',
        Range: 'bytes=0-9',
      });
      expect(res.status).toBe(206);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-range']).toBe(`bytes 0-9/${script.length}`);
      expect(res.body.equals(script.subarray(0, 10))).toBe(true);
    });

    it('should revalidate a different ETag for each coding of a file', async () => {
      const br = await raw('/assets/rows-Xy12_ab.js', { 'Accept-Encoding': 'br' });
      const gz = await raw('/assets/rows-Xy12_ab.js', { 'Accept-Encoding': 'gzip' });
      expect(br.headers.etag).not.toBe(gz.headers.etag);
      const again = await raw('/assets/rows-Xy12_ab.js', {
        'Accept-Encoding': 'br',
        'If-None-Match': br.headers.etag ?? '',
      });
      expect(again.status).toBe(304);
    });

    it('should never serve the compressed copies by their own names', async () => {
      for (const path of [
        '/assets/rows-Xy12_ab.js.br',
        '/assets/rows-Xy12_ab.js.gz',
        '/favicon.svg.br',
      ])
        expect([path, (await raw(path, { Accept: '*/*' })).status]).toEqual([path, 404]);
    });

    it('should compress the pages, never cached without revalidation, 304 while unchanged', async () => {
      for (const accept of ['br', 'gzip', 'identity']) {
        const res = await raw('/servers', { Accept: 'text/html', 'Accept-Encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.headers.vary).toMatch(/Accept-Encoding/i);
        const encoding = accept === 'identity' ? undefined : accept;
        expect(res.headers['content-encoding']).toBe(encoding);
        const html = decode(encoding, res.body).toString();
        expect(html).toContain('<meta name="scn:support-email" content="help@scn.test" />');
        const again = await raw('/servers', {
          Accept: 'text/html',
          'Accept-Encoding': accept,
          'If-None-Match': res.headers.etag ?? '',
        });
        expect(again.status).toBe(304);
        expect(again.body.length).toBe(0);
      }
      const missing = await raw('/no/such/page', { Accept: 'text/html', 'Accept-Encoding': 'br' });
      expect(missing.status).toBe(404);
      expect(missing.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(missing.body).toString()).toContain('portal');
    });
  });

  it('should answer unknown API paths with a JSON 404, never the portal', async () => {
    const res = await t.http().get('/api/nope').set('Accept', 'text/html').expect(404);
    expect(res.body).toEqual({ success: false, message: 'Not found', code: 'common.not_found' });
    await t.http().post('/servers').send({}).expect(404);
  });

  it.each([
    '/metrics',
    '/metrics/',
    '/api',
    '/data',
    '/data/nope',
    '/nodes',
    '/nodes/nope',
    '/wallet',
    '/wallet/nope',
    '/sub',
    '/downloads',
    '/downloads/nope.tgz',
    '/checksums',
    '/checksums/nope',
    '/clients/nope',
    '/solana/nope',
    '/health',
    '/healthz/nope',
    '/admin-servers/nope',
    '/install.sh/nope',
  ])('should answer %s with the JSON 404 of the API, even to a browser', async (path) => {
    const res = await t.http().get(path).set('Accept', 'text/html').expect(404);
    expect(res.body).toEqual({ success: false, message: 'Not found', code: 'common.not_found' });
  });

  it("should answer a JSON 404 under every namespace of the API's routes", async () => {
    const json = await t.http().get('/api/docs-json').expect(200);
    const namespaces = new Set(
      Object.keys(json.body.paths as Record<string, unknown>).map((path) => path.split('/')[1]),
    );
    expect([...namespaces].sort()).toEqual(
      expect.arrayContaining(['api', 'checksums', 'data', 'nodes', 'servers', 'sub', 'wallet']),
    );
    for (const namespace of namespaces) {
      const res = await t
        .http()
        .get(`/${namespace}/no-such/route/x/y/z`)
        .set('Accept', 'text/html')
        .expect(404);
      expect([namespace, res.body]).toEqual([
        namespace,
        { success: false, message: 'Not found', code: 'common.not_found' },
      ]);
    }
  });

  it('should send security headers', async () => {
    const res = await t.http().get('/healthz');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined(); // http PUBLIC_URL
  });

  it('should describe the REST API in OpenAPI at /api/docs', async () => {
    const json = await t.http().get('/api/docs-json').expect(200);
    const paths = Object.keys(json.body.paths as Record<string, unknown>);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/register',
        '/api/contact',
        '/api/auth/profile/{uuid}',
      ]),
    );
    const login = json.body.paths['/api/auth/login'].post;
    expect(JSON.stringify(login.requestBody)).toContain('LoginDto');
    const schema = json.body.components.schemas.LoginDto;
    expect(Object.keys(schema.properties as Record<string, unknown>).sort()).toEqual([
      'email',
      'password',
      'userType',
    ]);
    await t.http().get('/api/docs').expect(200);
  });
});

describe('secure cookies behind https', () => {
  it('should mark the session cookie Secure and send HSTS when PUBLIC_URL is https', async () => {
    const https = await startTestApp({ PUBLIC_URL: 'https://scn.example' });
    try {
      const res = await https.http().post('/api/auth/logout').expect(200);
      expect((res.headers['set-cookie'] as unknown as string[])[0]).toMatch(/Secure/);
      expect(res.headers['strict-transport-security']).toBeDefined();
    } finally {
      await https.close();
    }
  });
});
