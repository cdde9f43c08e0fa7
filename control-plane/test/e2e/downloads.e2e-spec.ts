import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { ANDROID_APKS, CLIENT_PLATFORMS, clientChecksumsResponseSchema } from '@scn/proto';
import { AGENT_BUNDLE_PATH } from '../../src/config/app-config';
import { startTestApp, type TestApp } from '../support/test-app';
import { binaryBody } from '../support/processes';

/** docs/product/calls.md#dashboard-calls: GET /checksums/client and /checksums/server, from outside. */
let t: TestApp;
beforeAll(async () => {
  // node-agent's build makes it; a suite that made its own would hide a build that does not.
  if (!existsSync(AGENT_BUNDLE_PATH)) {
    throw new Error(`${AGENT_BUNDLE_PATH} is missing: run \`npm run build\` first`);
  }
  t = await startTestApp();
}, 120_000);
afterAll(() => t.close());

describe('GET /checksums/server', () => {
  it('should give the SHA-256 of exactly the bytes served at /downloads/scn-agent.tgz', async () => {
    const res = await t.http().get('/checksums/server').expect(200);
    const bundle = await t
      .http()
      .get('/downloads/scn-agent.tgz')
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const body = bundle.body as Buffer;
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toEqual({
      success: true,
      data: {
        fileName: 'scn-agent.tgz',
        url: '/downloads/scn-agent.tgz',
        algorithm: 'sha256',
        checksum: createHash('sha256').update(body).digest('hex'),
        sizeBytes: body.length,
      },
    });
  });

  it('should need no session (the installer checks it before any account exists)', async () => {
    await t.http().get('/checksums/server').set('Accept', 'application/json').expect(200);
  });
});

describe('GET /checksums/client', () => {
  it('should list the pinned client app of every desktop platform with its published SHA-256', async () => {
    const res = await t.http().get('/checksums/client').expect(200);
    const parsed = clientChecksumsResponseSchema.parse(res.body);
    expect(Object.keys(parsed.data).sort()).toEqual([...CLIENT_PLATFORMS, ...ANDROID_APKS].sort());
    expect(parsed.data['windows-x64']).toMatchObject({
      app: 'v2rayN',
      label: 'Windows 10/11 (64-bit)',
      algorithm: 'sha256',
    });
    for (const platform of CLIENT_PLATFORMS) {
      const entry = parsed.data[platform];
      expect(entry.url.startsWith('https://github.com/2dust/v2rayN/releases/download/')).toBe(true);
      expect(entry.url.endsWith(`/${entry.fileName}`)).toBe(true);
      expect(entry.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('should list the Android APKs of v2rayNG and Hiddify from their official releases', async () => {
    const res = await t.http().get('/checksums/client').expect(200);
    const parsed = clientChecksumsResponseSchema.parse(res.body);
    expect(parsed.data['android-v2rayng']).toMatchObject({
      app: 'v2rayNG',
      packageName: 'com.v2ray.ang',
      algorithm: 'sha256',
    });
    expect(parsed.data['android-v2rayng'].url).toMatch(
      /^https:\/\/github\.com\/2dust\/v2rayNG\/releases\/download\/[^/]+\/v2rayNG_[^/]+\.apk$/,
    );
    expect(parsed.data['android-hiddify'].url).toMatch(
      /^https:\/\/github\.com\/hiddify\/hiddify-app\/releases\/download\/v[^/]+\/Hiddify-Android-universal\.apk$/,
    );
  });

  it('should answer JSON, not the portal, when a browser asks for the page', async () => {
    const res = await t.http().get('/checksums/client').set('Accept', 'text/html').expect(200);
    expect(res.body.success).toBe(true);
  });
});
