import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
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
  t = await startTestApp({ PORTAL_DIST: portal, SUPPORT_EMAIL: 'help@scn.test' });
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

  it('should serve hashed assets with a long cache', async () => {
    const res = await t.http().get('/assets/app-abc123.js').expect(200);
    expect(res.headers['cache-control']).toContain('immutable');
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

  it('should answer unknown API paths with a JSON 404, never the portal', async () => {
    const res = await t.http().get('/api/nope').set('Accept', 'text/html').expect(404);
    expect(res.body).toEqual({ success: false, message: 'Not found' });
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
    expect(res.body).toEqual({ success: false, message: 'Not found' });
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
      expect([namespace, res.body]).toEqual([namespace, { success: false, message: 'Not found' }]);
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
