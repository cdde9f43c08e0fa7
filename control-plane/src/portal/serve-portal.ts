import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { isPortalPage } from '@scn/proto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type Clock, systemClock } from '../common/clock';
import { launchPeriodActive } from '../common/launch-period';
import type { AppConfig } from '../config/app-config';
import {
  chooseEncoding,
  ENCODING_SUFFIX,
  type ContentEncoding,
  type PrecompressedEncoding,
} from './content-encoding';

/**
 * First path segments that are never the portal's although no REST route names them: socket.io,
 * and `metrics` (reserved for a metrics endpoint, so a scraper gets a 404 rather than a page).
 */
const RESERVED_NAMESPACES = ['socket.io', 'metrics'];

/**
 * The API's namespaces: the first segment of every REST path (from the OpenAPI document, so a new
 * controller's prefix is one without a list to keep), and the reserved ones. A path under one of
 * them that no route serves is the API's JSON 404, never the portal.
 */
export function apiNamespaces(restPaths: readonly string[]): ReadonlySet<string> {
  const namespaces = new Set(RESERVED_NAMESPACES);
  for (const path of restPaths) {
    const first = path.split('/')[1];
    if (first && !first.startsWith('{')) namespaces.add(first.toLowerCase());
  }
  return namespaces;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Serves the built portal: hashed assets cached for a year, and index.html (never cached) for
 * every other GET that asks for a page, so /servers and friends load on refresh (SPA fallback):
 * 200 for one of the portal's pages (`PORTAL_PAGES` of @scn/proto, the table its router is built
 * from), 404 for any other path, where the app shows its not-found page. Source maps are a build
 * artifact, never served (docs/security.md, "The portal"). Run-time settings reach the portal as
 * <meta> tags, which the CSP allows (no inline script). Files go out in the smallest coding the
 * browser accepts, from the `.br` and `.gz` copies the build writes (docs/api.md, "The portal").
 */
export function servePortal(
  app: NestExpressApplication,
  config: AppConfig,
  restPaths: readonly string[],
  clock: Clock = systemClock,
): void {
  const namespaces = apiNamespaces(restPaths);
  const isApiPath = (path: string) =>
    namespaces.has((path.split('/')[1] ?? '').toLowerCase()) && !isPortalPage(path);
  const indexFile = join(config.portalDist, 'index.html');
  const html = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
  // The page in its two states of the launch period, so whether it applies is the server clock's
  // answer at each request (the browser's clock may be wrong), without compressing per request.
  const pages = html
    ? {
        during: encodedPage(withSettings(html, config, true)),
        after: encodedPage(withSettings(html, config, false)),
      }
    : null;

  // Source maps stay in dist/ for whoever debugs a build, but are not published; the `.br` and
  // `.gz` copies are only ever sent as their original's coding. Hashed names change with their
  // content, so a year's `immutable` cache is safe.
  const assets = precompressedStatic(join(config.portalDist, 'assets'), {
    immutable: true,
    maxAge: '365d',
  });
  app.use('/assets', (req: Request, res: Response, next: NextFunction) =>
    isHiddenFile(req.path) ? next() : assets(req, res, next),
  );
  // API paths never name a portal file: skip the file-system lookup (a stat per API call).
  const portalFiles = precompressedStatic(config.portalDist, { maxAge: '1h' });
  app.use((req: Request, res: Response, next: NextFunction) =>
    isApiPath(req.path) || isHiddenFile(req.path) ? next() : portalFiles(req, res, next),
  );

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (isApiPath(req.path) || isHiddenFile(req.path)) return next();
    // Not asking for a page (a script, an image, a JSON client): the API's JSON 404.
    if (req.path !== '/' && !req.accepts('html')) return next();
    const page = isPortalPage(req.path);
    const index = launchPeriodActive(clock.now(), config.launchPeriodEndsAt)
      ? pages?.during
      : pages?.after;
    if (!index) {
      res
        .status(503)
        .type('text/plain')
        .send('The portal is not built yet: run `npm run build` in the repository.');
      return;
    }
    const encoding = chooseEncoding(req.get('accept-encoding'), ['br', 'gzip']);
    const body = index[encoding];
    // Revalidated on every visit (a new build must be seen at once), answered 304 while unchanged.
    res.setHeader('Cache-Control', 'no-cache');
    res.vary('Accept-Encoding');
    res.setHeader('ETag', `"${index.hash}-${encoding}"`);
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.status(page ? 200 : 404).type('html');
    if (page && req.fresh) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', body.length);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  });
}

/**
 * index.html with the run-time settings as <meta name="scn:*"> tags: the support address, the
 * public URL, the launch period's end (LAUNCH_PERIOD_ENDS, the end of its last day, UTC) and
 * whether it still applies by the server's clock (portal/src/lib/launch-period.ts reads both).
 */
function withSettings(html: string, config: AppConfig, launchPeriod: boolean): string {
  const meta = (name: string, content: string) =>
    `    <meta name="scn:${name}" content="${escapeAttribute(content)}" />\n`;
  return html.replace(
    '</head>',
    `${meta('support-email', config.supportEmail)}` +
      `${meta('public-url', config.publicUrl)}` +
      `${meta('launch-period-ends', config.launchPeriodEndsAt.toISOString())}` +
      `${meta('launch-period-active', String(launchPeriod))}  </head>`,
  );
}

/** The page in every coding, compressed once at start (it carries the run-time settings). */
function encodedPage(html: string): Record<ContentEncoding, Buffer> & { hash: string } {
  const identity = Buffer.from(html, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY },
    }),
    gzip: gzipSync(identity, { level: 9 }),
    hash: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
  };
}

type StaticOptions = Parameters<typeof express.static>[1];

/**
 * express.static that answers with the file's `.br` or `.gz` copy when one exists and the
 * browser accepts its coding (Content-Type of the original, Content-Encoding of the copy, the
 * copy's length and ETag); `Vary: Accept-Encoding` on every file that has a copy. A Range request
 * gets the original: ranges of a compressed body would surprise a resuming download.
 */
function precompressedStatic(root: string, options: StaticOptions) {
  const encodedAs = new WeakMap<Response, ContentEncoding>();
  const serve = express.static(root, {
    ...options,
    index: false,
    fallthrough: true,
    setHeaders: (res: Response, path: string) => {
      const encoding = encodedAs.get(res);
      if (encoding === undefined) return;
      res.vary('Accept-Encoding');
      if (encoding === 'identity') return;
      res.setHeader('Content-Encoding', encoding);
      res.type(extname(path.slice(0, -ENCODING_SUFFIX[encoding].length)));
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const available = precompressedCopies(root, req.path);
    if (available.length === 0) return serve(req, res, next);
    const encoding = req.get('range')
      ? 'identity'
      : chooseEncoding(req.get('accept-encoding'), available);
    encodedAs.set(res, encoding);
    if (encoding === 'identity') return serve(req, res, next);
    const originalUrl = req.url;
    const [pathPart, query] = splitQuery(originalUrl);
    req.url = `${pathPart}${ENCODING_SUFFIX[encoding]}${query}`;
    serve(req, res, (error?: unknown) => {
      req.url = originalUrl;
      encodedAs.delete(res);
      next(error);
    });
  };
}

/** The codings of the copies written beside the file `path` names under `root`. */
function precompressedCopies(root: string, path: string): PrecompressedEncoding[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return [];
  }
  // express.static refuses these itself; never look outside the root for a copy.
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) return [];
  const file = join(root, decoded);
  return (Object.keys(ENCODING_SUFFIX) as PrecompressedEncoding[]).filter((encoding) =>
    isFile(file + ENCODING_SUFFIX[encoding]),
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function splitQuery(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/** Source maps and the build's compressed copies: in dist/, never served by their own name. */
function isHiddenFile(path: string): boolean {
  return /\.(map|br|gz)$/i.test(path);
}
