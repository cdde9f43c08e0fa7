import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP-01 responder (RFC 8555 §8.3): while an order is open the agent listens on port 80
 * (`acme.httpPort`) and answers `GET /.well-known/acme-challenge/<token>` with the key
 * authorization. Any other request gets what an ordinary web server answers on port 80: a
 * redirect to https. It listens only while a certificate is being issued, so it never holds
 * port 80 against the operator's own web server for longer than an order takes.
 */
export class ChallengeServer {
  private readonly answers = new Map<string, string>();
  private server: http.Server | null = null;

  constructor(
    private readonly port: number,
    private readonly listen = '::',
  ) {}

  /**
   * Starts listening (every address, IPv6 and IPv4; IPv4 alone on a machine without IPv6);
   * rejects with the OS error (EADDRINUSE, EACCES) when it cannot.
   */
  async start(): Promise<number> {
    const server = http.createServer((request, response) => this.answer(request, response));
    server.keepAliveTimeout = 2_000;
    server.headersTimeout = 5_000;
    server.requestTimeout = 10_000;
    try {
      await listen(server, this.port, this.listen);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (this.listen !== '::' || (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL'))
        throw error;
      await listen(server, this.port, '0.0.0.0');
    }
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  set(token: string, keyAuthorization: string): void {
    this.answers.set(token, keyAuthorization);
  }

  remove(token: string): void {
    this.answers.delete(token);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.answers.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = request.url ?? '/';
    const match = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]{1,256})$/.exec(url);
    const keyAuthorization = match ? this.answers.get(match[1]!) : undefined;
    if (keyAuthorization !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': Buffer.byteLength(keyAuthorization),
      });
      response.end(request.method === 'HEAD' ? undefined : keyAuthorization);
      return;
    }
    if (match) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('Not Found\n');
      return;
    }
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (!/^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]+\]$/.test(host)) {
      response.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
      response.end('Bad Request\n');
      return;
    }
    response.writeHead(301, { location: `https://${host}${url.startsWith('/') ? url : '/'}` });
    response.end();
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ipv6Only: false }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
