import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressAllowed, guardedLookup } from '../social/share-verifier';

/**
 * One download of a mirrored APK (downloads/apk-mirror.service.ts): the body streamed to a
 * partial file while its SHA-256 is computed, never held in memory.
 *
 * - Redirects: at most 5, each judged again (GitHub answers a release asset with a redirect to
 *   its storage host). Only https, unless `allowHttp` (never with NODE_ENV=production).
 * - Addresses: only public unicast ones are dialled, by our own lookup (the share verifier's
 *   policy); loopback only for the configured test base URL's host.
 * - Limits: `maxBytes` (a declared length above it is refused before reading; a body that grows
 *   past it is cut off and discarded), `idleTimeoutMs` without a byte, `totalTimeoutMs` in all.
 * - Resumable: a transfer cut off (a timeout, a reset) keeps its partial file and the upstream's
 *   ETag beside it; the next attempt asks for the rest (`Range` with `If-Range`), and starts over
 *   when the upstream answers the whole file (it changed, or it ignores ranges).
 * - Conditional: with the validators of the copy we have, a 304 means nothing to fetch.
 */
export interface FetchOptions {
  maxBytes: number;
  idleTimeoutMs: number;
  totalTimeoutMs: number;
  allowHttp: boolean;
  /** The host (host:port) whose loopback address may be dialled (the test base URL's). */
  loopbackHost: string | null;
  /** Extra trusted CAs (tests: a self-signed loopback server). */
  ca?: string;
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FetchResult =
  | {
      status: 'fetched';
      sha256: string;
      sizeBytes: number;
      finalUrl: string;
      validators: Validators;
    }
  | { status: 'not-modified' };

export class FetchError extends Error {
  constructor(
    message: string,
    /** Whether the partial file is worth resuming (a cut-off transfer), or must go. */
    readonly keepPartial = false,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

const MAX_REDIRECTS = 5;
/** Every APK is a ZIP archive: an error page answered with 200 is not one. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

interface Partial {
  url: string;
  etag: string;
  bytes: number;
}

async function readPartial(partPath: string, url: string): Promise<Partial | null> {
  try {
    const meta = JSON.parse(await readFile(`${partPath}.json`, 'utf8')) as Partial;
    const info = await stat(partPath);
    if (meta.url !== url || typeof meta.etag !== 'string' || !info.isFile()) return null;
    return { url, etag: meta.etag, bytes: info.size };
  } catch {
    return null;
  }
}

export async function discardPartial(partPath: string): Promise<void> {
  await rm(partPath, { force: true });
  await rm(`${partPath}.json`, { force: true });
}

function open(
  url: URL,
  headers: Record<string, string>,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:')) {
    return Promise.reject(new FetchError(`refused ${url.protocol} URL (https only): ${url.href}`));
  }
  const allowLoopback = options.loopbackHost !== null && url.host === options.loopbackHost;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !addressAllowed(literal, allowLoopback)) {
    return Promise.reject(new FetchError(`refused address ${literal}`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      lookup: guardedLookup(allowLoopback),
      headers: { 'user-agent': 'scn-apk-mirror/1', accept: '*/*', ...headers },
      signal,
      ...(options.ca && url.protocol === 'https:' ? { ca: options.ca } : {}),
    });
    request.setTimeout(options.idleTimeoutMs, () =>
      request.destroy(new FetchError(`no data for ${options.idleTimeoutMs} ms`, true)),
    );
    request.on('response', resolve);
    request.on('error', (error) =>
      reject(error instanceof FetchError ? error : new FetchError(error.message, true)),
    );
    request.end();
  });
}

/**
 * Fetches `url` into `partPath` (following redirects) and answers its SHA-256 and size, or
 * not-modified. On success the partial file holds exactly the hashed bytes; the caller moves it.
 */
export async function fetchToFile(
  url: string,
  partPath: string,
  known: Validators | null,
  options: FetchOptions,
): Promise<FetchResult> {
  const controller = new AbortController();
  const deadline = setTimeout(
    () => controller.abort(new FetchError(`took longer than ${options.totalTimeoutMs} ms`, true)),
    options.totalTimeoutMs,
  );
  try {
    return await fetchWithin(url, partPath, known, options, controller.signal);
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof FetchError) {
      throw controller.signal.reason;
    }
    throw error instanceof FetchError ? error : new FetchError((error as Error).message, true);
  } finally {
    clearTimeout(deadline);
  }
}

async function fetchWithin(
  url: string,
  partPath: string,
  known: Validators | null,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<FetchResult> {
  const partial = await readPartial(partPath, url);
  const headers: Record<string, string> = {};
  if (partial && partial.bytes > 0) {
    headers.range = `bytes=${partial.bytes}-`;
    headers['if-range'] = partial.etag;
  } else if (known) {
    if (known.etag) headers['if-none-match'] = known.etag;
    if (known.lastModified) headers['if-modified-since'] = known.lastModified;
  }

  let target = new URL(url);
  let response: http.IncomingMessage;
  for (let hop = 0; ; hop += 1) {
    response = await open(target, headers, options, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && status !== 304 && location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new FetchError(`more than ${MAX_REDIRECTS} redirects`);
      try {
        target = new URL(location, target);
      } catch {
        throw new FetchError(`bad redirect to ${location}`);
      }
      continue;
    }
    break;
  }

  const status = response.statusCode ?? 0;
  if (status === 304 && !headers.range) {
    response.resume();
    return { status: 'not-modified' };
  }
  let offset = 0;
  let total: number | null = null;
  if (status === 206 && partial) {
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers['content-range'] ?? '');
    if (!range || Number(range[1]) !== partial.bytes) {
      response.resume();
      await discardPartial(partPath);
      throw new FetchError(`unexpected Content-Range ${response.headers['content-range']}`);
    }
    offset = partial.bytes;
    total = Number(range[3]);
  } else if (status === 200) {
    const declared = response.headers['content-length'];
    total = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null;
  } else {
    response.resume();
    // The partial file stays: the upstream failing now says nothing about the bytes we have.
    throw new FetchError(`upstream answered ${status}`, true);
  }
  if (total !== null && total > options.maxBytes) {
    response.destroy();
    await discardPartial(partPath);
    throw new FetchError(`${total} bytes is more than the ${options.maxBytes}-byte limit`);
  }

  const hash = createHash('sha256');
  if (offset > 0) {
    for await (const chunk of createReadStream(partPath, { end: offset - 1 })) {
      hash.update(chunk as Buffer);
    }
  }
  const validators: Validators = {
    etag: typeof response.headers.etag === 'string' ? response.headers.etag : null,
    lastModified: response.headers['last-modified'] ?? null,
  };
  // A strong ETag lets a cut-off transfer resume; without one it starts over.
  if (validators.etag && !validators.etag.startsWith('W/')) {
    await writeFile(`${partPath}.json`, JSON.stringify({ url, etag: validators.etag }));
  } else {
    await rm(`${partPath}.json`, { force: true });
  }

  let size = offset;
  let head = Buffer.alloc(0);
  const out = createWriteStream(partPath, { flags: offset > 0 ? 'a' : 'w' });
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        reject(error);
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (failed) return;
        size += chunk.length;
        if (size > options.maxBytes) {
          fail(new FetchError(`the body grew past the ${options.maxBytes}-byte limit`));
          return;
        }
        if (head.length < ZIP_MAGIC.length && offset === 0) {
          head = Buffer.concat([head, chunk]).subarray(0, ZIP_MAGIC.length);
          if (head.length === ZIP_MAGIC.length && !head.equals(ZIP_MAGIC)) {
            fail(new FetchError('not an APK (no ZIP header)'));
            return;
          }
        }
        hash.update(chunk);
        if (!out.write(chunk)) {
          response.pause();
          out.once('drain', () => response.resume());
        }
      });
      response.on('aborted', () => fail(new FetchError('the upstream closed early', true)));
      response.on('error', (error) =>
        fail(error instanceof FetchError ? error : new FetchError(error.message, true)),
      );
      response.on('end', () => resolve());
      out.on('error', fail);
    });
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
  if (total !== null && size !== total) {
    throw new FetchError(`got ${size} of ${total} bytes`, true);
  }
  if (size < ZIP_MAGIC.length) throw new FetchError('not an APK (too short)');
  return {
    status: 'fetched',
    sha256: hash.digest('hex'),
    sizeBytes: size,
    finalUrl: target.href,
    validators,
  };
}
