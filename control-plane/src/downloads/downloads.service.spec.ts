import { createHash } from 'node:crypto';
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ANDROID_APKS,
  CLIENT_PLATFORMS,
  DOWNLOADS_MESSAGES,
  clientChecksumsSchema,
} from '@scn/proto';
import clientApps from './client-apps.json';
import { DownloadsService } from './downloads.service';

const dir = mkdtempSync(join(tmpdir(), 'scn-downloads-'));
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

describe('DownloadsService', () => {
  it('should give the real SHA-256 of the bundle, and a new one when the file changes', async () => {
    const bundle = join(dir, 'scn-agent.tgz');
    writeFileSync(bundle, 'first build');
    const service = new DownloadsService(bundle, clientApps);
    expect(await service.serverChecksum()).toEqual({
      fileName: 'scn-agent.tgz',
      url: '/downloads/scn-agent.tgz',
      algorithm: 'sha256',
      checksum: sha256('first build'),
      sizeBytes: 11,
    });

    writeFileSync(bundle, 'second build!');
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    expect((await service.serverChecksum()).checksum).toBe(sha256('second build!'));
  });

  it('should answer not found when the bundle is not built', async () => {
    const service = new DownloadsService(join(dir, 'missing.tgz'), clientApps);
    await expect(service.serverChecksum()).rejects.toMatchObject({
      kind: 'not_found',
      message: DOWNLOADS_MESSAGES.agentBundleMissing,
    });
  });

  it('should list every desktop platform of the picker and the Android APKs from the manifest', () => {
    const service = new DownloadsService(join(dir, 'missing.tgz'), clientApps);
    expect(Object.keys(service.clientChecksums()).sort()).toEqual(
      [...CLIENT_PLATFORMS, ...ANDROID_APKS].sort(),
    );
  });

  it('should pin each APK to its official GitHub release, with a published hash or none', () => {
    const apps = new DownloadsService(join(dir, 'missing.tgz'), clientApps).clientChecksums();
    const official = {
      'android-v2rayng': '2dust/v2rayNG',
      'android-hiddify': 'hiddify/hiddify-app',
    };
    for (const apk of ANDROID_APKS) {
      const entry = apps[apk];
      const release = `https://github.com/${official[apk]}/releases/`;
      expect(
        entry.url.startsWith(`${release}download/${entry.version}/`) ||
          entry.url.startsWith(`${release}download/v${entry.version}/`),
      ).toBe(true);
      expect(entry.url.endsWith(`/${entry.fileName}`)).toBe(true);
      expect(entry.fileName.endsWith('.apk')).toBe(true);
      expect(entry.source.startsWith(`${release}tag/`)).toBe(true);
      expect(entry.checksum === null || /^[0-9a-f]{64}$/.test(entry.checksum)).toBe(true);
    }
  });

  it('should answer a mirrored APK with its copy: the computed SHA-256 and where it is served', () => {
    const mirror = {
      url: '/downloads/apps/Hiddify-Android-universal.apk',
      sizeBytes: 42,
      fetchedAt: '2026-11-28T00:00:00.000Z',
      source: clientApps['android-hiddify'].url,
    };
    const copies = {
      copyOf: (apk: string) =>
        apk === 'android-hiddify' ? { sha256: 'b'.repeat(64), mirror } : null,
    };
    const apps = new DownloadsService('x', clientApps, copies).clientChecksums();
    expect(clientChecksumsSchema.parse(apps)).toEqual(apps);
    expect(apps['android-hiddify']).toEqual({
      ...clientApps['android-hiddify'],
      checksum: 'b'.repeat(64),
      mirror,
    });
    expect(apps['android-v2rayng']).toEqual({ ...clientApps['android-v2rayng'], mirror: null });
    expect(apps['windows-x64']).toEqual(clientApps['windows-x64']);
  });

  it('should refuse to start with a manifest that lacks a platform or has a bad checksum', () => {
    const { 'macos-intel': _dropped, ...withoutIntel } = clientApps;
    expect(() => new DownloadsService('x', withoutIntel)).toThrow(/client-apps.json is invalid/);
    const badChecksum = {
      ...clientApps,
      'windows-x64': { ...clientApps['windows-x64'], checksum: 'not-a-hash' },
    };
    expect(() => new DownloadsService('x', badChecksum)).toThrow(/64 lowercase hex digits/);
    const badApk = {
      ...clientApps,
      'android-hiddify': { ...clientApps['android-hiddify'], checksum: 'F'.repeat(64) },
    };
    expect(() => new DownloadsService('x', badApk)).toThrow(/64 lowercase hex digits/);
    const { 'android-v2rayng': _apk, ...withoutApk } = clientApps;
    expect(() => new DownloadsService('x', withoutApk)).toThrow(/client-apps.json is invalid/);
  });
});
