import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { Request, Response } from 'express';
import { pino } from 'pino';
import { maskSecretPath, recordUnavailable, requestLog } from './request-log';

interface Line {
  level: number;
  msg: string;
  req: { id: number; method: string; path: string };
  res: { statusCode: number };
  responseTime: number;
}

let server: Server;
let base: string;
let lines: Line[];
let level = 'info';

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text));
  });
  const logger = pino({ level: 'trace' }, stream);
  const log = requestLog(logger);
  server = createServer((req, res) => {
    logger.level = level;
    log(req as Request, res as Response, () => {
      const status = Number(new URL(req.url!, 'http://x').searchParams.get('status') ?? 200);
      if (req.url!.startsWith('/slow')) return; // never answers: the client gives up
      res.statusCode = status;
      if (req.url!.includes('reason=database'))
        recordUnavailable(res as Response, 'The database does not answer');
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  lines = [];
  level = 'info';
});

const settle = () => new Promise((r) => setTimeout(r, 50));

describe('requestLog', () => {
  it('should log each request once with its id, method, path, status and time', async () => {
    await fetch(`${base}/data/servers?search=secret&page=2`);
    await fetch(`${base}/api/contact`, { method: 'POST', body: '{}' });
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: { id: expect.any(Number), method: 'GET', path: '/data/servers' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({
        req: expect.objectContaining({ method: 'POST', path: '/api/contact' }),
      }),
    ]);
    expect(lines[1]!.req.id).toBe(lines[0]!.req.id + 1);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('should log a 5xx at error, even when info is off, and nothing else then', async () => {
    level = 'warn';
    await fetch(`${base}/data/servers`);
    await fetch(`${base}/broken?status=500`);
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, msg: 'request errored', res: { statusCode: 500 } }),
    ]);
  });

  it('should log a 503 at warn with the reason recorded for it, without a stack', async () => {
    level = 'warn';
    await fetch(`${base}/unavailable?status=503&reason=database`);
    await fetch(`${base}/health/ready?status=503`);
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'request unavailable',
        res: { statusCode: 503 },
        reason: 'The database does not answer',
      }),
      expect.objectContaining({
        level: 40,
        msg: 'request unavailable',
        req: expect.objectContaining({ path: '/health/ready' }),
      }),
    ]);
    expect(lines[1]).not.toHaveProperty('reason');
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('should log a request whose client left before the answer at warn', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${base}/slow`);
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 50);
    });
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'request aborted',
        req: expect.objectContaining({ path: '/slow' }),
      }),
    ]);
  });

  it('should keep the health probe quiet and log nothing when silent', async () => {
    await fetch(`${base}/healthz`);
    level = 'silent';
    await fetch(`${base}/broken?status=500`);
    await settle();
    expect(lines).toEqual([]);
  });

  it('should never log the secret of a subscription URL', async () => {
    await fetch(`${base}/sub/abcDEF123secret`);
    await settle();
    expect(lines[0]!.req.path).toBe('/sub/[redacted]');
    expect(maskSecretPath('/SUB/x/y')).toBe('/sub/[redacted]/y');
  });
});
