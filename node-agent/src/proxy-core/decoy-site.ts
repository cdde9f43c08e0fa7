import { createHash } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';

/**
 * The decoy web site behind the TLS inbound's VLESS fallback (docs/security.md "Active
 * probing"). A prober that completes TLS with the node and sends anything but a valid VLESS
 * request is handed, by the core, to this server on loopback: it answers as a small static site
 * behind nginx would, status line, headers and pages alike, so the node looks like an ordinary
 * HTTPS web server instead of a proxy that drops strangers. Operators can point the fallback at
 * a real site of their own instead (`scn-agent decoy --upstream`).
 */

/** nginx's own name in its `Server` header (server_tokens off, the common hardening). */
const SERVER = 'nginx';

/** The pages of the site: one ordinary home page and a robots file. */
const INDEX = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northfield Photo Archive</title>
<style>
body{font-family:Georgia,serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222;line-height:1.6}
h1{font-weight:normal;border-bottom:1px solid #ccc;padding-bottom:.5rem}
footer{margin-top:3rem;font-size:.85rem;color:#777}
</style>
</head>
<body>
<h1>Northfield Photo Archive</h1>
<p>A small private collection of landscape and street photographs taken between 2009 and 2021,
kept online for family and friends.</p>
<p>The gallery is being reorganised and is temporarily closed to visitors. If you were sent a
link to an album, please ask the person who shared it for a new one.</p>
<footer>&copy; Northfield Photo Archive</footer>
</body>
</html>
`;
const ROBOTS = 'User-agent: *\nDisallow: /\n';

/** nginx's built-in error page for `status` (ngx_http_special_response.c, server_tokens off). */
export function nginxErrorPage(status: number): string {
  const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
  return (
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n` +
    `<center><h1>${title}</h1></center>\r\n<hr><center>${SERVER}</center>\r\n</body>\r\n</html>\r\n`
  );
}

interface Page {
  body: string;
  type: string;
  etag: string;
}

/** nginx's ETag for a static file: `"<mtime hex>-<size hex>"`. */
function page(body: string, type: string, modified: Date): Page {
  const seconds = Math.floor(modified.getTime() / 1000).toString(16);
  return { body, type, etag: `"${seconds}-${Buffer.byteLength(body).toString(16)}"` };
}

export interface DecoySiteOptions {
  /** Default 127.0.0.1: only the core (its fallback) talks to the decoy. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** When the pages were last changed (Last-Modified, ETag); default a fixed past date. */
  modified?: Date;
}

export interface DecoySite {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A date of its own for each node (from the port it first got), so that decoys of different
 * nodes do not share one Last-Modified value a prober could match across the network.
 */
function defaultModified(seed: string): Date {
  const days = createHash('sha256').update(seed).digest().readUInt16BE(0) % 900;
  return new Date(Date.UTC(2023, 0, 1) + days * 86_400_000 + 37_000 * (days % 97));
}

/** Starts the decoy site; resolves when it listens. */
export async function startDecoySite(options: DecoySiteOptions = {}): Promise<DecoySite> {
  const host = options.host ?? '127.0.0.1';
  let modified = options.modified;
  let pages: Record<string, Page> = {};
  const server = http.createServer((request, response) => {
    // Headers in nginx's order, with its own Date (Node's would come last).
    response.sendDate = false;
    const keepAlive = response.shouldKeepAlive;
    const common: [string, string][] = [
      ['Server', SERVER],
      ['Date', new Date().toUTCString()],
    ];
    const connection: [string, string] = ['Connection', keepAlive ? 'keep-alive' : 'close'];
    const method = request.method ?? 'GET';
    const path = (request.url ?? '/').split('?')[0]!;
    const found = pages[path];
    if (found && method !== 'GET' && method !== 'HEAD') {
      // nginx refuses other methods on static files with 405.
      sendError(response, 405, common, connection);
      return;
    }
    if (!found) {
      sendError(response, 404, common, connection);
      return;
    }
    response.writeHead(200, [
      ...common,
      ['Content-Type', found.type],
      ['Content-Length', String(Buffer.byteLength(found.body))],
      ['Last-Modified', modified!.toUTCString()],
      connection,
      ['ETag', found.etag],
      ['Accept-Ranges', 'bytes'],
    ]);
    response.end(method === 'HEAD' ? undefined : found.body);
  });
  // What nginx answers to bytes that are not HTTP: 400 with its page, then it closes.
  server.on('clientError', (_error, socket: net.Socket) => {
    if (!socket.writable) return socket.destroy();
    const body = nginxErrorPage(400);
    socket.end(
      'HTTP/1.1 400 Bad Request\r\n' +
        `Server: ${SERVER}\r\nDate: ${new Date().toUTCString()}\r\n` +
        `Content-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
  // nginx's default keepalive_timeout.
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  modified ??= defaultModified(`${address.port}`);
  const index = page(INDEX, 'text/html', modified);
  pages = {
    '/': index,
    '/index.html': index,
    '/robots.txt': page(ROBOTS, 'text/plain', modified),
  };
  return {
    host,
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendError(
  response: http.ServerResponse,
  status: number,
  common: [string, string][],
  connection: [string, string],
): void {
  const body = nginxErrorPage(status);
  response.writeHead(status, [
    ...common,
    ['Content-Type', 'text/html'],
    ['Content-Length', String(Buffer.byteLength(body))],
    connection,
  ]);
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
