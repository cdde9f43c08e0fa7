import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ANDROID_APKS,
  type ClientAppsManifest,
  type ClientChecksums,
  DOWNLOADS_ROUTES,
  type ServerChecksumResponse,
  clientAppsManifestSchema,
} from '@scn/proto';
import { AGENT_BUNDLE_FILE } from '../config/config.module';
import { ApkMirrorService } from './apk-mirror.service';
import { DownloadsException } from './downloads.exception';

/** Where the agent bundle lives (ConfigModule provides it; the installer serves the same file). */
export { AGENT_BUNDLE_FILE };
/** The manifest of recommended client apps (data, see client-apps.json). */
export const CLIENT_APPS_MANIFEST = Symbol('CLIENT_APPS_MANIFEST');

/** Checks client-apps.json against the contract (the module refuses to start on a bad one). */
export function parseClientApps(manifest: unknown): ClientAppsManifest {
  const parsed = clientAppsManifestSchema.safeParse(manifest);
  if (!parsed.success) {
    throw new Error(`client-apps.json is invalid: ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}

/** What the checksums of the APKs are without a mirror (unit tests of the table). */
const NO_MIRROR: Pick<ApkMirrorService, 'copyOf'> = { copyOf: () => null };

type ServerChecksum = ServerChecksumResponse['data'];

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * docs/product/calls.md#dashboard-calls checksums. The client apps are third-party VLESS clients, so their checksums are
 * the ones their publishers' package manifests give, pinned in client-apps.json and checked
 * against the contract when the module loads. An Android APK this control plane mirrors
 * (CLIENT_APK_MIRROR) is answered with its copy: the SHA-256 computed over the bytes served.
 * The server checksum is the real SHA-256 of the agent bundle this control plane serves.
 */
@Injectable()
export class DownloadsService {
  private readonly clientApps: ClientAppsManifest;
  /** The bundle's hash, reused while the file's size and modification time stay the same. */
  private cached: { key: string; value: Promise<ServerChecksum> } | null = null;

  constructor(
    @Inject(AGENT_BUNDLE_FILE) private readonly bundlePath: string,
    @Inject(CLIENT_APPS_MANIFEST) manifest: unknown,
    @Optional()
    @Inject(ApkMirrorService)
    private readonly mirror: Pick<ApkMirrorService, 'copyOf'> = NO_MIRROR,
  ) {
    this.clientApps = parseClientApps(manifest);
  }

  clientChecksums(): ClientChecksums {
    const answer = { ...this.clientApps } as ClientChecksums;
    for (const apk of ANDROID_APKS) {
      const entry = this.clientApps[apk];
      const copy = this.mirror.copyOf(apk);
      answer[apk] = copy
        ? { ...entry, checksum: copy.sha256, mirror: copy.mirror }
        : { ...entry, mirror: null };
    }
    return answer;
  }

  async serverChecksum(): Promise<ServerChecksum> {
    const info = await stat(this.bundlePath).catch(() => null);
    if (!info?.isFile()) throw new DownloadsException('agent_bundle_missing');
    const key = `${info.size}:${info.mtimeMs}`;
    let entry = this.cached;
    if (entry?.key !== key) {
      const value = sha256Of(this.bundlePath).then((checksum) => ({
        fileName: basename(this.bundlePath),
        url: DOWNLOADS_ROUTES.agentBundle,
        algorithm: 'sha256' as const,
        checksum,
        sizeBytes: info.size,
      }));
      entry = { key, value };
      this.cached = entry;
      // A failed read (the file replaced mid-hash) is not remembered.
      value.catch(() => {
        if (this.cached?.value === value) this.cached = null;
      });
    }
    try {
      return await entry.value;
    } catch {
      throw new DownloadsException('agent_bundle_missing');
    }
  }
}
