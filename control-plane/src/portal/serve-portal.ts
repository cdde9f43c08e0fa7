import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { isPortalPage } from '@scn/proto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AppConfig } from '../config/app-config';

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
 * <meta> tags, which the CSP allows (no inline script).
 */
export function servePortal(
  app: NestExpressApplication,
  config: AppConfig,
  restPaths: readonly string[],
): void {
  const namespaces = apiNamespaces(restPaths);
  const isApiPath = (path: string) =>
    namespaces.has((path.split('/')[1] ?? '').toLowerCase()) && !isPortalPage(path);
  const indexFile = join(config.portalDist, 'index.html');
  const index = existsSync(indexFile)
    ? readFileSync(indexFile, 'utf8').replace(
        '</head>',
        `  <meta name="scn:support-email" content="${escapeAttribute(config.supportEmail)}" />\n` +
          `    <meta name="scn:public-url" content="${escapeAttribute(config.publicUrl)}" />\n  </head>`,
      )
    : null;

  const assets = express.static(join(config.portalDist, 'assets'), {
    immutable: true,
    maxAge: '365d',
    fallthrough: true,
  });
  // Source maps stay in dist/ for whoever debugs a build, but are not published.
  app.use('/assets', (req: Request, res: Response, next: NextFunction) =>
    isSourceMap(req.path) ? next() : assets(req, res, next),
  );
  // API paths never name a portal file: skip the file-system lookup (a stat per API call).
  const portalFiles = express.static(config.portalDist, { index: false, maxAge: '1h' });
  app.use((req: Request, res: Response, next: NextFunction) =>
    isApiPath(req.path) || isSourceMap(req.path) ? next() : portalFiles(req, res, next),
  );

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (isApiPath(req.path) || isSourceMap(req.path)) return next();
    // Not asking for a page (a script, an image, a JSON client): the API's JSON 404.
    if (req.path !== '/' && !req.accepts('html')) return next();
    const page = isPortalPage(req.path);
    if (!index) {
      res
        .status(503)
        .type('text/plain')
        .send('The portal is not built yet: run `npm run build` in the repository.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res
      .status(page ? 200 : 404)
      .type('html')
      .send(index);
  });
}

function isSourceMap(path: string): boolean {
  return path.toLowerCase().endsWith('.map');
}
