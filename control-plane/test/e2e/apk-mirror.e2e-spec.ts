import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientChecksumsResponseSchema, DOWNLOADS_MESSAGES } from '@scn/proto';
import { ApkMirrorService } from '../../src/downloads/apk-mirror.service';
import clientApps from '../../src/downloads/client-apps.json';
import { binaryBody } from '../support/processes';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The control plane mirrors the client apps' Android APKs (CLIENT_APK_MIRROR) and
 * serves them with the SHA-256 it computed, on the built server. A local HTTP server on loopback
 * stands in for GitHub (CLIENT_APK_MIRROR_BASE_URL): the release URL of v2rayNG redirects to its
 * storage, and on demand it answers 500 or an oversized body. The real GitHub is never asked.
 */
type Mode = 'ok' | 'error' | 'oversized';

const V2RAYNG = clientApps['android-v2rayng'];
const HIDDIFY = clientApps['android-hiddify'];
const apk = (size: number) => Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(size - 4)]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let mode: Mode = 'error';
const files = { v2rayng: apk(256_000), hiddify: apk(180_000) };
const requests: string[] = [];
let upstream: http.Server;
let t: TestApp;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === new URL(V2RAYNG.url).pathname) {
      return void res.writeHead(302, { location: '/storage/v2rayng.apk' }).end();
    }
    const body =
      req.url === '/storage/v2rayng.apk'
        ? files.v2rayng
        : req.url === new URL(HIDDIFY.url).pathname
          ? files.hiddify
          : null;
    if (!body) return void res.writeHead(404).end();
    if (mode === 'error') return void res.writeHead(500).end('server error');
    if (mode === 'oversized') {
      // More than the mirror's 300 MiB limit, declared: refused before a byte is stored.
      res.writeHead(200, { 'content-length': String(400 * 1024 * 1024) });
      return void res.write(body);
    }
    res.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({
    CLIENT_APK_MIRROR: 'true',
    CLIENT_APK_MIRROR_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
  });
}, 120_000);
afterAll(async () => {
  await t.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

async function checksums() {
  const res = await t.http().get('/checksums/client').expect(200);
  return clientChecksumsResponseSchema.parse(res.body).data;
}

function download(path: string) {
  return t.http().get(path).buffer(true).parse(binaryBody);
}

describe('the APK mirror on the built server', () => {
  it('should try at start, and answer 404 JSON and the upstream link until a copy exists', async () => {
    // The job's first run happens at start-up; the stand-in answers 500 for now. Wait for the
    // Hiddify request itself: v2rayNG's download can be two requests (a redirect to storage).
    const hiddifyPath = new URL(HIDDIFY.url).pathname;
    for (let i = 0; i < 200 && !requests.includes(hiddifyPath); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    expect(requests).toContain(hiddifyPath);
    await t.app.get(ApkMirrorService).mirrorAll();

    const res = await t.http().get(`/downloads/apps/${HIDDIFY.fileName}`).expect(404);
    expect(res.body).toEqual({
      success: false,
      message: DOWNLOADS_MESSAGES.clientApkNotMirrored,
      code: 'downloads.client_apk_not_mirrored',
    });
    await t.http().head(`/downloads/apps/${HIDDIFY.fileName}`).expect(404);
    const data = await checksums();
    expect(data['android-hiddify']).toEqual({ ...HIDDIFY, mirror: null });
    expect(data['android-v2rayng']).toMatchObject({
      url: V2RAYNG.url,
      checksum: null,
      mirror: null,
    });
  });

  it('should serve exactly the upstream bytes, with the SHA-256 it computed in /checksums/client', async () => {
    mode = 'ok';
    expect(await t.app.get(ApkMirrorService).mirrorAll()).toEqual({
      'android-v2rayng': 'fetched',
      'android-hiddify': 'fetched',
    });
    const data = await checksums();
    for (const [id, entry, bytes] of [
      ['android-v2rayng', V2RAYNG, files.v2rayng],
      ['android-hiddify', HIDDIFY, files.hiddify],
    ] as const) {
      expect(data[id]).toEqual({
        ...entry,
        checksum: sha256(bytes),
        mirror: {
          url: `/downloads/apps/${entry.fileName}`,
          sizeBytes: bytes.length,
          fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          source: entry.url,
        },
      });
      const res = await download(data[id].mirror!.url).expect(200);
      expect((res.body as Buffer).equals(bytes)).toBe(true);
      expect(sha256(res.body as Buffer)).toBe(data[id].checksum);
      expect(res.headers).toMatchObject({
        'content-type': 'application/vnd.android.package-archive',
        'content-length': String(bytes.length),
        'cache-control': 'public, max-age=3600',
        etag: `"${sha256(bytes)}"`,
        'content-disposition': `attachment; filename="${entry.fileName}"`,
      });
    }
  });

  it('should answer HEAD, a revalidation and a range as a downloader expects', async () => {
    const path = `/downloads/apps/${HIDDIFY.fileName}`;
    const head = await t.http().head(path).expect(200);
    expect(head.headers['content-length']).toBe(String(files.hiddify.length));
    expect(head.headers['content-type']).toBe('application/vnd.android.package-archive');
    expect(head.body).toEqual({});
    await t
      .http()
      .get(path)
      .set('If-None-Match', `"${sha256(files.hiddify)}"`)
      .expect(304);
    const part = await download(path).set('Range', 'bytes=100-199').expect(206);
    expect((part.body as Buffer).equals(files.hiddify.subarray(100, 200))).toBe(true);
  });

  it('should keep the previous copy when the upstream fails or sends too much', async () => {
    const before = await checksums();
    const changed = { v2rayng: files.v2rayng, hiddify: files.hiddify };
    files.v2rayng = apk(100_000);
    files.hiddify = apk(90_000);
    for (const failing of ['error', 'oversized'] as const) {
      mode = failing;
      expect(await t.app.get(ApkMirrorService).mirrorAll()).toEqual({
        'android-v2rayng': 'failed',
        'android-hiddify': 'failed',
      });
      expect(await checksums()).toEqual(before);
      const res = await download(`/downloads/apps/${V2RAYNG.fileName}`).expect(200);
      expect((res.body as Buffer).equals(changed.v2rayng)).toBe(true);
    }
  });

  it('should answer 404 for a file it does not mirror', async () => {
    for (const name of ['v2rayN-windows-64.zip', 'other.apk', '..%2Fmirror.json']) {
      await t.http().get(`/downloads/apps/${name}`).expect(404);
    }
  });
});
