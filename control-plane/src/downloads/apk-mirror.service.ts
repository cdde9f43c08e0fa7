import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ANDROID_APKS,
  type AndroidApk,
  type ApkMirror,
  type ClientAppsManifest,
  DOWNLOADS_ROUTES,
} from '@scn/proto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import {
  FetchError,
  type FetchOptions,
  type Validators,
  discardPartial,
  fetchToFile,
} from './apk-fetch';

/** The manifest of client apps, validated (DownloadsModule provides it). */
export const CLIENT_APPS = Symbol('CLIENT_APPS');
/** The mirror's limits (tests make them small). */
export const APK_FETCH_LIMITS = Symbol('APK_FETCH_LIMITS');

export type FetchLimits = Pick<
  FetchOptions,
  'maxBytes' | 'idleTimeoutMs' | 'totalTimeoutMs' | 'ca'
>;

/** An APK is 30-150 MB; 300 MiB leaves room and stops a runaway body. */
export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  maxBytes: 300 * 1024 * 1024,
  idleTimeoutMs: 60_000,
  totalTimeoutMs: 30 * 60_000,
};

/** What the mirror keeps of one APK (DATA_DIR/client-apps/mirror.json). */
export interface MirrorRecord {
  fileName: string;
  /** The manifest URL it was fetched for (a new release in client-apps.json is a new URL). */
  upstreamUrl: string;
  /** Where the bytes came from, after redirects. */
  finalUrl: string;
  sha256: string;
  sizeBytes: number;
  fetchedAt: string;
  /** The upstream's validators, for a conditional request next time. */
  etag: string | null;
  lastModified: string | null;
}

export type MirrorOutcome = 'fetched' | 'unchanged' | 'failed';

/**
 * The control plane's copies of the client apps' Android APKs (GitHub is slow or
 * blocked on many networks in China and Iran). Each APK is fetched from its upstream URL into
 * DATA_DIR/client-apps/partial/, hashed while written, and moved whole (a rename on the same
 * file system) to DATA_DIR/client-apps/<sha256>.apk; then mirror.json records its size, SHA-256,
 * source and time (written to a temporary file and renamed: never half-written). A file is named
 * by its hash, so a new copy never overwrites the one being served; the old one is removed once
 * the record points at the new. A failed fetch changes nothing: the previous copy stays served.
 */
@Injectable()
export class ApkMirrorService {
  private readonly logger = new Logger('ApkMirror');
  private readonly dir: string;
  private readonly records = new Map<AndroidApk, MirrorRecord>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLIENT_APPS) private readonly manifest: ClientAppsManifest,
    @Inject(APK_FETCH_LIMITS) private readonly limits: FetchLimits,
  ) {
    this.dir = join(config.dataDir, 'client-apps');
    this.load();
  }

  get enabled(): boolean {
    return this.config.apkMirror.enabled;
  }

  /** The served copy of `apk` and its SHA-256, if it is of the manifest's current release. */
  copyOf(apk: AndroidApk): { mirror: ApkMirror; sha256: string } | null {
    const record = this.current(apk);
    if (!record) return null;
    return {
      sha256: record.sha256,
      mirror: {
        url: DOWNLOADS_ROUTES.clientApk(record.fileName),
        sizeBytes: record.sizeBytes,
        fetchedAt: record.fetchedAt,
        source: record.upstreamUrl,
      },
    };
  }

  /** The record and file of the mirrored APK named `fileName`, or null. */
  fileNamed(fileName: string): { record: MirrorRecord; path: string } | null {
    for (const apk of ANDROID_APKS) {
      const record = this.current(apk);
      if (record?.fileName === fileName) return { record, path: this.pathOf(record) };
    }
    return null;
  }

  /**
   * Mirrors every APK once (sequentially: two large downloads at once help nobody). Runs never
   * overlap: a call while one is going waits for it, then runs (they share the partial files).
   */
  mirrorAll(): Promise<Record<AndroidApk, MirrorOutcome>> {
    const run = this.queue.then(() => this.mirrorEach());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async mirrorEach(): Promise<Record<AndroidApk, MirrorOutcome>> {
    const outcomes = {} as Record<AndroidApk, MirrorOutcome>;
    for (const apk of ANDROID_APKS) outcomes[apk] = await this.mirrorOne(apk);
    await this.removeStrays();
    return outcomes;
  }

  /** One APK (unit tests; the job calls mirrorAll, which never overlaps itself). */
  async mirrorOne(apk: AndroidApk): Promise<MirrorOutcome> {
    const entry = this.manifest[apk];
    const upstream = this.upstreamUrl(entry.url);
    const previous = this.current(apk);
    mkdirSync(join(this.dir, 'partial'), { recursive: true });
    const part = join(this.dir, 'partial', `${apk}-${shortHash(upstream)}.part`);
    const known: Validators | null = previous
      ? { etag: previous.etag, lastModified: previous.lastModified }
      : null;
    let result;
    try {
      result = await fetchToFile(upstream, part, known, this.fetchOptions());
    } catch (error) {
      const keep = error instanceof FetchError && error.keepPartial;
      if (!keep) await discardPartial(part);
      this.logger.warn(
        { apk, upstream, err: { message: (error as Error).message } },
        `Mirroring ${entry.fileName} failed${previous ? '; the previous copy stays served' : ''}${keep ? '; the partial download resumes next time' : ''}`,
      );
      return 'failed';
    }
    if (result.status === 'not-modified') return 'unchanged';
    if (entry.checksum && entry.checksum !== result.sha256) {
      await discardPartial(part);
      this.logger.error(
        { apk, upstream, expected: entry.checksum, got: result.sha256 },
        `Mirroring ${entry.fileName} refused: its SHA-256 is not the published one`,
      );
      return 'failed';
    }
    const record: MirrorRecord = {
      fileName: entry.fileName,
      upstreamUrl: entry.url,
      finalUrl: result.finalUrl,
      sha256: result.sha256,
      sizeBytes: result.sizeBytes,
      fetchedAt: new Date().toISOString(),
      etag: result.validators.etag,
      lastModified: result.validators.lastModified,
    };
    await rename(part, this.pathOf(record));
    await rm(`${part}.json`, { force: true });
    this.records.set(apk, record);
    await this.save();
    if (previous && previous.sha256 !== record.sha256) await this.removeStrays();
    this.logger.log(
      { apk, sha256: record.sha256, sizeBytes: record.sizeBytes, source: record.finalUrl },
      `Mirrored ${entry.fileName}`,
    );
    return previous?.sha256 === record.sha256 ? 'unchanged' : 'fetched';
  }

  private fetchOptions(): FetchOptions {
    const base = this.config.apkMirror.baseUrl;
    return {
      ...this.limits,
      allowHttp: this.config.apkMirror.allowHttp,
      loopbackHost: base ? new URL(base).host : null,
    };
  }

  /** The manifest's URL, or its path on the test base URL. */
  private upstreamUrl(url: string): string {
    const base = this.config.apkMirror.baseUrl;
    if (!base) return url;
    const { pathname, search } = new URL(url);
    return new URL(`${pathname}${search}`, base).href;
  }

  private current(apk: AndroidApk): MirrorRecord | null {
    const record = this.records.get(apk);
    const entry = this.manifest[apk];
    if (!record || record.upstreamUrl !== entry.url || record.fileName !== entry.fileName) {
      return null;
    }
    return record;
  }

  private pathOf(record: MirrorRecord): string {
    return join(this.dir, `${record.sha256}.apk`);
  }

  /** Reads mirror.json, keeping only records whose file is there with its recorded size. */
  private load(): void {
    let saved: Partial<Record<AndroidApk, MirrorRecord>>;
    try {
      saved = JSON.parse(readFileSync(join(this.dir, 'mirror.json'), 'utf8')).apps ?? {};
    } catch {
      return;
    }
    for (const apk of ANDROID_APKS) {
      const record = saved[apk];
      if (!record || !/^[0-9a-f]{64}$/.test(record.sha256)) continue;
      try {
        if (statSync(this.pathOf(record)).size === record.sizeBytes) this.records.set(apk, record);
      } catch {
        // The file is gone: fetched again on the next run.
      }
    }
  }

  private async save(): Promise<void> {
    const file = join(this.dir, 'mirror.json');
    const temporary = `${file}.${randomUUID()}.tmp`;
    const apps = Object.fromEntries(this.records);
    await writeFile(temporary, `${JSON.stringify({ apps }, null, 2)}\n`);
    await rename(temporary, file);
  }

  /** Removes copies no record points at (a replaced release). */
  private async removeStrays(): Promise<void> {
    const kept = new Set([...this.records.values()].map((record) => `${record.sha256}.apk`));
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (name.endsWith('.apk') && !kept.has(name)) await rm(join(this.dir, name), { force: true });
    }
  }
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
