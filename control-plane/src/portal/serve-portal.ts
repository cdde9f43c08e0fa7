import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AppConfig } from '../config/app-config';

/** Paths the portal never owns: they go to the API (and 404 there as JSON). */
const API_PREFIXES = [
  '/api/',
  '/api',
  '/data/',
  '/socket.io',
  '/healthz',
  '/health/',
  '/install.sh',
  '/downloads/',
  '/checksums/',
  '/sub/',
  '/admin-servers',
  '/wallet/',
  '/clients/',
  '/nodes/',
  '/solana/',
  '/servers/',
];

function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix));
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Serves the built portal: hashed assets cached for a year, and index.html (never cached) for
 * every other GET that asks for a page, so /servers and friends load on refresh (SPA fallback).
 * Run-time settings reach the portal as <meta> tags, which the CSP allows (no inline script).
 */
export function servePortal(app: NestExpressApplication, config: AppConfig): void {
  const indexFile = join(config.portalDist, 'index.html');
  const index = existsSync(indexFile)
    ? readFileSync(indexFile, 'utf8').replace(
        '</head>',
        `  <meta name="scn:support-email" content="${escapeAttribute(config.supportEmail)}" />\n` +
          `    <meta name="scn:public-url" content="${escapeAttribute(config.publicUrl)}" />\n  </head>`,
      )
    : null;

  app.use(
    '/assets',
    express.static(join(config.portalDist, 'assets'), {
      immutable: true,
      maxAge: '365d',
      fallthrough: true,
    }),
  );
  // API paths never name a portal file: skip the file-system lookup (a stat per API call).
  const portalFiles = express.static(config.portalDist, { index: false, maxAge: '1h' });
  app.use((req: Request, res: Response, next: NextFunction) =>
    isApiPath(req.path) ? next() : portalFiles(req, res, next),
  );

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (isApiPath(req.path)) return next();
    if (req.path !== '/' && !req.accepts('html')) return next();
    if (!index) {
      res
        .status(503)
        .type('text/plain')
        .send('The portal is not built yet: run `npm run build` in the repository.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(index);
  });
}
