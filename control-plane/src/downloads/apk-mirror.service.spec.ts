import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { selfSigned } from '../../test/support/self-signed';
import { ApkMirrorService, type FetchLimits } from './apk-mirror.service';
import clientApps from './client-apps.json';
import { parseClientApps } from './downloads.service';

/**
 * The APK mirror against a local server standing in for GitHub (never the real one): a release
 * URL that redirects to its storage, the bytes with an ETag, ranges and conditional requests,
 * and on demand a 500, an oversized body, a cut-off transfer or an HTML page.
 */
const V2RAYNG_PATH = new URL(clientApps['android-v2rayng'].url).pathname;
const HIDDIFY_PATH = new URL(clientApps['android-hiddify'].url).pathname;
const apk = (size: number) => Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(size - 4)]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

type Mode = 'ok' | 'error' | 'declared-too-large' | 'grows-too-large' | 'cut' | 'html';

class Upstream {
  mode: Mode = 'ok';
  files: Record<string, Buffer> = { v2rayng: apk(200_000), hiddify: apk(150_000) };
  etags: Record<string, string> = { v2rayng: '"v1"', hiddify: '"h1"' };
  /** Each request: the path and its Range / If-None-Match headers. */
  log: { path: string; range?: string; ifNoneMatch?: string }[] = [];
  fullBodies = 0;

  handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = req.url ?? '';
    this.log.push({
      path,
      range: req.headers.range,
      ifNoneMatch: req.headers['if-none-match'] as string | undefined,
    });
    if (path === V2RAYNG_PATH) {
      res.writeHead(302, { location: '/storage/v2rayng' }).end();
      return;
    }
    const name = path === HIDDIFY_PATH ? 'hiddify' : path.replace('/storage/', '');
    const body = this.files[name];
    if (!body) return void res.writeHead(404).end();
    const etag = this.etags[name]!;
    if (this.mode === 'error') return void res.writeHead(500).end('oops');
    if (this.mode === 'html') {
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html>rate limited</html>');
    }
    if (this.mode === 'declared-too-large') {
      res.writeHead(200, { 'content-length': String(10_000_000), etag });
      res.write(body.subarray(0, 1000));
      return;
    }
    if (this.mode === 'grows-too-large') {
      res.writeHead(200, { etag }); // chunked: no length declared
      res.write(body);
      res.write(body);
      res.end(body);
      return;
    }
    if (req.headers['if-none-match'] === etag && !req.headers.range) {
      return void res.writeHead(304, { etag }).end();
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range && req.headers['if-range'] === etag) {
      const start = Number(range[1]);
      res.writeHead(206, {
        etag,
        'content-length': String(body.length - start),
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
      });
      res.end(body.subarray(start));
      return;
    }
    this.fullBodies += 1;
    res.writeHead(200, { etag, 'content-length': String(body.length) });
    if (this.mode === 'cut') {
      res.write(body.subarray(0, 60_000));
      setTimeout(() => res.destroy(), 50);
      return;
    }
    res.end(body);
  };
}

const LIMITS: FetchLimits = { maxBytes: 300_000, idleTimeoutMs: 2_000, totalTimeoutMs: 10_000 };

let upstream: Upstream;
let server: http.Server;
let base: string;
let dataDir: string;

function mirror(
  overrides: Partial<AppConfig['apkMirror']> = {},
  limits: FetchLimits = LIMITS,
  manifest: unknown = clientApps,
): ApkMirrorService {
  const config = {
    dataDir,
    apkMirror: { enabled: true, baseUrl: base, allowHttp: true, ...overrides },
  } as AppConfig;
  return new ApkMirrorService(config, parseClientApps(manifest), limits);
}

function servedBytes(service: ApkMirrorService, fileName: string): Buffer {
  const found = service.fileNamed(fileName);
  if (!found) throw new Error(`${fileName} is not mirrored`);
  return readFileSync(found.path);
}

beforeEach(async () => {
  upstream = new Upstream();
  server = http.createServer(upstream.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'scn-apk-mirror-'));
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ApkMirrorService', () => {
  it('should store exactly the upstream bytes (after a redirect) with their SHA-256, size and source', async () => {
    const service = mirror();
    expect(service.copyOf('android-v2rayng')).toBeNull();
    expect(await service.mirrorAll()).toEqual({
      'android-v2rayng': 'fetched',
      'android-hiddify': 'fetched',
    });
    const v2rayng = upstream.files.v2rayng!;
    expect(servedBytes(service, 'v2rayNG_1.10.32_universal.apk').equals(v2rayng)).toBe(true);
    expect(
      servedBytes(service, 'Hiddify-Android-universal.apk').equals(upstream.files.hiddify!),
    ).toBe(true);
    expect(service.copyOf('android-v2rayng')).toEqual({
      sha256: sha256(v2rayng),
      mirror: {
        url: '/downloads/apps/v2rayNG_1.10.32_universal.apk',
        sizeBytes: v2rayng.length,
        fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        source: clientApps['android-v2rayng'].url,
      },
    });
    expect(upstream.log.map((r) => r.path)).toEqual([
      V2RAYNG_PATH,
      '/storage/v2rayng',
      HIDDIFY_PATH,
    ]);

    // Recorded on disk: a new process serves the same copies without fetching.
    const saved = JSON.parse(readFileSync(join(dataDir, 'client-apps', 'mirror.json'), 'utf8'));
    expect(saved.apps['android-v2rayng']).toMatchObject({
      sha256: sha256(v2rayng),
      sizeBytes: v2rayng.length,
      upstreamUrl: clientApps['android-v2rayng'].url,
      finalUrl: `${base}/storage/v2rayng`,
    });
    const restarted = mirror();
    expect(restarted.copyOf('android-v2rayng')).toEqual(service.copyOf('android-v2rayng'));
  });

  it('should ask again conditionally, and fetch nothing while the upstream is unchanged', async () => {
    const service = mirror();
    await service.mirrorAll();
    const before = upstream.fullBodies;
    expect(await service.mirrorAll()).toEqual({
      'android-v2rayng': 'unchanged',
      'android-hiddify': 'unchanged',
    });
    expect(upstream.fullBodies).toBe(before);
    expect(upstream.log.at(-1)).toMatchObject({ path: HIDDIFY_PATH, ifNoneMatch: '"h1"' });
  });

  it('should keep serving the previous copy when a fetch fails, and take a changed file', async () => {
    const service = mirror();
    await service.mirrorAll();
    const first = service.copyOf('android-hiddify');
    const old = upstream.files.hiddify!;

    upstream.etags.hiddify = '"h2"';
    upstream.files.hiddify = apk(120_000);
    upstream.mode = 'error';
    expect(await service.mirrorAll()).toEqual({
      'android-v2rayng': 'failed',
      'android-hiddify': 'failed',
    });
    expect(service.copyOf('android-hiddify')).toEqual(first);
    expect(servedBytes(service, 'Hiddify-Android-universal.apk').equals(old)).toBe(true);

    upstream.mode = 'ok';
    expect((await service.mirrorAll())['android-hiddify']).toBe('fetched');
    expect(service.copyOf('android-hiddify')?.sha256).toBe(sha256(upstream.files.hiddify));
    // The replaced copy is gone; one file per APK remains.
    const files = readdirSync(join(dataDir, 'client-apps')).filter((f) => f.endsWith('.apk'));
    expect(files.sort()).toEqual(
      [sha256(upstream.files.v2rayng!), sha256(upstream.files.hiddify)]
        .map((h) => `${h}.apk`)
        .sort(),
    );
  });

  it.each<Mode>(['declared-too-large', 'grows-too-large', 'html'])(
    'should refuse a body that is %s and store nothing',
    async (mode) => {
      upstream.mode = mode;
      const service = mirror();
      expect((await service.mirrorAll())['android-hiddify']).toBe('failed');
      expect(service.copyOf('android-hiddify')).toBeNull();
      expect(service.fileNamed('Hiddify-Android-universal.apk')).toBeNull();
      expect(readdirSync(join(dataDir, 'client-apps', 'partial'))).toEqual([]);
    },
  );

  it('should resume a cut-off transfer where it stopped', async () => {
    upstream.mode = 'cut';
    const service = mirror();
    expect(await service.mirrorOne('android-hiddify')).toBe('failed');
    expect(readdirSync(join(dataDir, 'client-apps', 'partial')).length).toBeGreaterThan(0);

    upstream.mode = 'ok';
    expect(await service.mirrorOne('android-hiddify')).toBe('fetched');
    expect(upstream.log.at(-1)).toMatchObject({ path: HIDDIFY_PATH, range: 'bytes=60000-' });
    expect(upstream.fullBodies).toBe(1);
    expect(
      servedBytes(service, 'Hiddify-Android-universal.apk').equals(upstream.files.hiddify!),
    ).toBe(true);
    expect(service.copyOf('android-hiddify')?.sha256).toBe(sha256(upstream.files.hiddify!));
    expect(readdirSync(join(dataDir, 'client-apps', 'partial'))).toEqual([]);
  });

  it('should give up on an upstream that stops sending, within the idle timeout', async () => {
    upstream.mode = 'declared-too-large';
    const service = mirror({}, { ...LIMITS, maxBytes: 20_000_000, idleTimeoutMs: 300 });
    const started = Date.now();
    expect(await service.mirrorOne('android-hiddify')).toBe('failed');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(service.copyOf('android-hiddify')).toBeNull();
  });

  it('should refuse a copy whose SHA-256 is not the one the publisher gives', async () => {
    const published = {
      ...clientApps,
      'android-hiddify': { ...clientApps['android-hiddify'], checksum: 'a'.repeat(64) },
    };
    const service = mirror({}, LIMITS, published);
    expect(await service.mirrorOne('android-hiddify')).toBe('failed');
    expect(service.copyOf('android-hiddify')).toBeNull();
  });

  it('should not serve a copy of another release once client-apps.json moves on', async () => {
    await mirror().mirrorAll();
    const newer = {
      ...clientApps,
      'android-hiddify': {
        ...clientApps['android-hiddify'],
        version: '9.9.9',
        url: 'https://github.com/hiddify/hiddify-app/releases/download/v9.9.9/Hiddify-Android-universal.apk',
      },
    };
    const service = mirror({}, LIMITS, newer);
    expect(service.copyOf('android-hiddify')).toBeNull();
    expect(service.copyOf('android-v2rayng')).not.toBeNull();
  });

  it('should refuse plain http unless allowed (NODE_ENV=production never allows it)', async () => {
    const service = mirror({ allowHttp: false });
    expect(await service.mirrorAll()).toEqual({
      'android-v2rayng': 'failed',
      'android-hiddify': 'failed',
    });
    expect(upstream.log).toEqual([]);
  });

  it('should refuse a loopback address that is not the configured base URL', async () => {
    const service = mirror({ baseUrl: base.replace('127.0.0.1', 'localhost') });
    // localhost resolves to loopback: allowed, it is the base URL's own host.
    expect(await service.mirrorOne('android-hiddify')).toBe('fetched');
    // The redirect of v2rayNG goes to the base's host too; a redirect elsewhere would be refused.
    upstream.handle = (req, res) =>
      void res.writeHead(302, { location: 'http://127.0.0.2:9/x' }).end();
    server.removeAllListeners('request');
    server.on('request', upstream.handle);
    expect(await service.mirrorOne('android-v2rayng')).toBe('failed');
  });

  it('should fetch over https from a server with a trusted certificate', async () => {
    const cert = selfSigned('localhost');
    const secure = https.createServer(
      { cert: cert.certificatePem, key: cert.keyPem },
      upstream.handle,
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    try {
      const httpsBase = `https://localhost:${(secure.address() as AddressInfo).port}`;
      const service = mirror(
        { baseUrl: httpsBase, allowHttp: false },
        { ...LIMITS, ca: cert.certificatePem },
      );
      expect(await service.mirrorAll()).toEqual({
        'android-v2rayng': 'fetched',
        'android-hiddify': 'fetched',
      });
      expect(existsSync(service.fileNamed('v2rayNG_1.10.32_universal.apk')!.path)).toBe(true);
    } finally {
      secure.closeAllConnections();
      await new Promise((resolve) => secure.close(resolve));
    }
  });
});
